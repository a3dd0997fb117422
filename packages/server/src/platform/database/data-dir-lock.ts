import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../errors.js';

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dataDir>/slipway.pid` exclusively. A lock left by a dead process is taken over;
 * a lock held by a live one is refused with a message naming it.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, 'slipway.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new ConfigurationError(
          `SLIPWAY_DATA_DIR: ${dataDir} is in use by another Slipway process (pid ${holder}); ` +
            'the embedded database serves one process. Stop it, choose another data directory, or set DATABASE_URL.',
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new ConfigurationError(`SLIPWAY_DATA_DIR: could not lock ${dataDir}`);
}
