import { describe, expect, it } from 'vitest';
import { SecretMasker } from './secret-masker.js';

describe('SecretMasker', () => {
  it('replaces every occurrence of every value', () => {
    const masker = new SecretMasker();
    masker.add('s3cret');
    masker.add('tok-123');
    expect(masker.mask('a s3cret b s3cret c tok-123')).toBe('a *** b *** c ***');
  });

  it('ignores values shorter than 3 characters', () => {
    const masker = new SecretMasker();
    masker.add('ab');
    masker.add('');
    expect(masker.mask('abc ab')).toBe('abc ab');
    expect(masker.size).toBe(0);
  });

  it('masks a value that contains another one whole', () => {
    const masker = new SecretMasker();
    masker.add('pass');
    masker.add('password123');
    expect(masker.mask('x password123 pass')).toBe('x *** ***');
  });

  it('masks each line of a multi-line value, since output is masked line by line', () => {
    const masker = new SecretMasker();
    masker.add('-----BEGIN KEY-----\r\nAAAABBBB\nCCCC\n');
    expect(masker.mask('AAAABBBB')).toBe('***');
    expect(masker.mask('line CCCC end')).toBe('line *** end');
  });

  it('passes text through untouched when it holds no secret', () => {
    const masker = new SecretMasker();
    masker.add('secret-value');
    const text = '\x1b[31mred\x1b[0m';
    expect(masker.mask(text)).toBe(text);
  });
});
