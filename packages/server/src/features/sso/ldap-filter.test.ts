import { describe, expect, it } from 'vitest';
import { escapeFilterValue, fillFilter, normaliseDn } from './ldap-filter.js';

describe('LDAP filter values (RFC 4515)', () => {
  it('escapes the characters that change a filter', () => {
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('a\\b\0c')).toBe('a\\5cb\\00c');
    expect(escapeFilterValue('José O’Brien')).toBe('José O’Brien');
  });

  it('fills placeholders with escaped values and leaves unknown ones', () => {
    expect(fillFilter('(&(objectClass=person)(uid={username}))', { username: 'ad*' })).toBe(
      '(&(objectClass=person)(uid=ad\\2a))',
    );
    expect(fillFilter('(member={dn})', { dn: 'cn=A (x),dc=t' })).toBe('(member=cn=A \\28x\\29,dc=t)');
    expect(fillFilter('(x={other})', {})).toBe('(x={other})');
  });

  it('compares DNs without regard to case or blanks', () => {
    expect(normaliseDn('CN=Devs, OU=Groups ,dc=Slipway')).toBe(normaliseDn('cn=devs,ou=groups,dc=slipway'));
  });
});
