import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { branchMatches } from './branch-glob.js';
import { sign, verifySignature } from './webhook-signature.js';

describe('branch globs', () => {
  it('matches within a path segment with *, across segments with **', () => {
    expect(branchMatches('*', 'feature/a/b')).toBe(true);
    expect(branchMatches('main', 'main')).toBe(true);
    expect(branchMatches('main', 'main2')).toBe(false);
    expect(branchMatches('release/*', 'release/1.2')).toBe(true);
    expect(branchMatches('release/*', 'release/1.2/hotfix')).toBe(false);
    expect(branchMatches('release/**', 'release/1.2/hotfix')).toBe(true);
    expect(branchMatches('v?.x', 'v1.x')).toBe(true);
    expect(branchMatches('v?.x', 'v1x')).toBe(false);
    expect(branchMatches('a.b', 'aXb')).toBe(false);
  });
});

describe('signatures', () => {
  const body = Buffer.from('{"zen":"Keep it logically awesome."}');
  it('checks GitHub and Bitbucket sha256 HMACs of the raw body', () => {
    const good = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`;
    expect(sign('s3cret', body)).toBe(good);
    expect(verifySignature('github', 's3cret', good, body)).toEqual({ ok: true });
    expect(
      verifySignature('bitbucket', 's3cret', good.toUpperCase().replace('SHA256', 'sha256'), body),
    ).toEqual({ ok: true });
    expect(verifySignature('github', 'other', good, body).ok).toBe(false);
    expect(verifySignature('github', 's3cret', good, Buffer.from(`${body} `)).ok).toBe(false);
    expect(verifySignature('github', 's3cret', 'sha1=abc', body)).toEqual({
      ok: false,
      reason: 'x-hub-signature-256 must be sha256= followed by 64 hex digits',
    });
    expect(verifySignature('bitbucket', 's3cret', undefined, body)).toEqual({
      ok: false,
      reason: 'Missing x-hub-signature header',
    });
  });
  it('compares GitLab tokens exactly', () => {
    expect(verifySignature('gitlab', 'token-1', 'token-1', body)).toEqual({ ok: true });
    expect(verifySignature('gitlab', 'token-1', 'token-12', body).ok).toBe(false);
    expect(verifySignature('gitlab', 'token-1', '', body).ok).toBe(false);
  });
});
