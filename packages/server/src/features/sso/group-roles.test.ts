import { describe, expect, it } from 'vitest';
import { mapGroupsToRoles } from './group-roles.js';

const groups = [
  { dn: 'cn=devs,ou=groups,dc=t', cn: 'devs' },
  { dn: 'cn=ops,ou=groups,dc=t', cn: 'ops' },
];

describe('mapGroupsToRoles', () => {
  it('makes a member when no mapping matches', () => {
    const r = mapGroupsToRoles(groups, [{ group: 'admins', organisationRole: 'account_admin' }]);
    expect(r.organisationRole).toBe('member');
    expect(r.matched).toEqual([]);
  });

  it('makes an account admin when any matching group maps to it, by cn or DN', () => {
    expect(
      mapGroupsToRoles(groups, [
        { group: 'devs', organisationRole: 'member' },
        { group: 'CN=ops, ou=groups, dc=t', organisationRole: 'account_admin' },
      ]).organisationRole,
    ).toBe('account_admin');
  });

  it('gives each workspace the role of the first matching mapping', () => {
    const r = mapGroupsToRoles(groups, [
      { group: 'nobody', organisationRole: 'member', workspaceId: 'w1', workspaceRole: 'project_admin' },
      { group: 'devs', organisationRole: 'member', workspaceId: 'w1', workspaceRole: 'developer' },
      { group: 'ops', organisationRole: 'member', workspaceId: 'w1', workspaceRole: 'viewer' },
      { group: 'ops', organisationRole: 'member', workspaceId: 'w2', workspaceRole: 'viewer' },
    ]);
    expect([...r.workspaces]).toEqual([
      ['w1', 'developer'],
      ['w2', 'viewer'],
    ]);
  });
});
