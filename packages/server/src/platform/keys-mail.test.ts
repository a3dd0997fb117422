import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { delayAfter, PER_ACCOUNT } from '../features/auth/throttle.js';
import { tokenFromHeader } from './auth/tokens.js';
import { Keys, loadMasterKey } from './keys.js';
import { OutboxMailer } from './mail.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'slipway-keys-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('master key', () => {
  it('creates a 0600 key file on first start and reuses it', () => {
    const dir = tempDir();
    const a = loadMasterKey(undefined, dir);
    expect(statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(loadMasterKey(undefined, dir).equals(a)).toBe(true);
  });
  it('takes SLIPWAY_MASTER_KEY as hex or base64, and names the variable when it is wrong', () => {
    expect(loadMasterKey('a'.repeat(64), tempDir())).toHaveLength(32);
    expect(loadMasterKey(Buffer.alloc(32, 7).toString('base64'), tempDir())).toHaveLength(32);
    expect(() => loadMasterKey('short', tempDir())).toThrow('SLIPWAY_MASTER_KEY: must be 32 bytes');
  });
  it('encrypts with AES-256-GCM and refuses tampered text', () => {
    const keys = new Keys(Buffer.alloc(32, 1));
    const sealed = keys.encrypt('bind-password');
    expect(sealed).not.toContain('bind-password');
    expect(keys.decrypt(sealed)).toBe('bind-password');
    const [iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => keys.decrypt([iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new Keys(Buffer.alloc(32, 2)).decrypt(sealed)).toThrow();
  });
});

describe('outbox mailer', () => {
  it('writes each mail as an .eml file and logs its subject', async () => {
    const dir = tempDir();
    const logged: unknown[] = [];
    const mailer = new OutboxMailer(dir, 'Slipway <no-reply@slipway.local>', { info: (o) => logged.push(o) });
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Your Slipway verification code: 123456',
      text: 'Hello',
    });
    const [file] = readdirSync(dir);
    expect(file).toMatch(/ada@example\.com\.eml$/);
    const eml = readFileSync(path.join(dir, file!), 'utf8');
    expect(eml).toContain('Subject: Your Slipway verification code: 123456');
    expect(eml).toContain('To: ada@example.com');
    expect(logged).toEqual([expect.objectContaining({ subject: 'Your Slipway verification code: 123456' })]);
  });
});

describe('small rules', () => {
  it('reads the token with or without Bearer', () => {
    expect(tokenFromHeader('Bearer abc')).toBe('abc');
    expect(tokenFromHeader('bearer  abc ')).toBe('abc');
    expect(tokenFromHeader('abc')).toBe('abc');
    expect(tokenFromHeader('')).toBeNull();
    expect(tokenFromHeader(undefined)).toBeNull();
  });
  it('grows the delay after the free failures, up to the ceiling', () => {
    expect(delayAfter(4, PER_ACCOUNT)).toBe(0);
    expect(delayAfter(5, PER_ACCOUNT)).toBe(2000);
    expect(delayAfter(6, PER_ACCOUNT)).toBe(4000);
    expect(delayAfter(40, PER_ACCOUNT)).toBe(15 * 60_000);
  });
});
