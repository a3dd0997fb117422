import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { tuneSharedBuffers } from './pglite-module.js';

describe('PGlite module tuning', () => {
  it('rewrites the baked-in shared_buffers in place and keeps the length', () => {
    const bytes = Buffer.from('\0abc-c\0shared_buffers=128MB\0xyz', 'latin1');
    const tuned = tuneSharedBuffers(bytes, '16MB');
    expect(tuned).toBeDefined();
    expect(tuned!.length).toBe(bytes.length);
    expect(tuned!.toString('latin1')).toBe('\0abc-c\0shared_buffers=16MB\0\0xyz');
    // The input is not modified.
    expect(bytes.toString('latin1')).toContain('128MB');
  });

  it('leaves a module without the setting, or with it twice, alone', () => {
    expect(tuneSharedBuffers(Buffer.from('nothing here'))).toBeUndefined();
    const twice = Buffer.from('shared_buffers=128MB\0shared_buffers=128MB\0', 'latin1');
    expect(tuneSharedBuffers(twice)).toBeUndefined();
  });

  it('refuses a size that is not a size or does not fit', () => {
    const bytes = Buffer.from('shared_buffers=128MB\0', 'latin1');
    expect(() => tuneSharedBuffers(bytes, '1GB; drop')).toThrow(/does not fit/);
    expect(() => tuneSharedBuffers(bytes, '123456MB')).toThrow(/does not fit/);
  });

  it('starts the embedded database with the smaller buffer pool', async () => {
    const database = await openDatabase({ dataDir: '', inMemory: true });
    try {
      const rows = await database.withSession((s) =>
        s.query<{ setting: string; unit: string }>(
          "select setting, unit from pg_settings where name = 'shared_buffers'",
        ),
      );
      // 16 MB in 8 kB pages.
      expect(rows[0]).toEqual({ setting: '2048', unit: '8kB' });
    } finally {
      await database.close();
    }
  });
});
