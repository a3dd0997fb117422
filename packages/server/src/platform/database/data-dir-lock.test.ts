import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from './data-dir-lock.js';

describe('data directory lock', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'slipway-lock-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('writes the pid and removes it on release', () => {
    const d = dir();
    const lock = acquireDataDirLock(d);
    expect(readFileSync(path.join(d, 'slipway.pid'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(path.join(d, 'slipway.pid'))).toBe(false);
  });

  it('takes over a lock left by a dead process', () => {
    const d = dir();
    writeFileSync(path.join(d, 'slipway.pid'), '999999999');
    acquireDataDirLock(d).release();
  });

  it('refuses a lock held by a live process, naming the variable and the pid', async () => {
    const d = dir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(d, 'slipway.pid'), String(child.pid));
      expect(() => acquireDataDirLock(d)).toThrow(
        `SLIPWAY_DATA_DIR: ${d} is in use by another Slipway process (pid ${child.pid})`,
      );
    } finally {
      child.kill();
    }
  });
});
