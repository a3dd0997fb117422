import { describe, expect, it } from 'vitest';
import { StandingCache } from './standing-cache.js';

describe('StandingCache', () => {
  it('shares one read between callers until the entry is older than its lifetime', async () => {
    let t = 0;
    let reads = 0;
    const cache = new StandingCache(1_000, () => t);
    const load = async () => ++reads;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, reads]).toEqual([1, 1, 1]);
    t = 999;
    expect(await cache.get('k', load)).toBe(1);
    t = 1_000;
    expect(await cache.get('k', load)).toBe(2);
    expect(await cache.get('other', load)).toBe(3);
  });

  it('forgets everything on clear, and never keeps a failed read', async () => {
    let reads = 0;
    const cache = new StandingCache(60_000);
    await cache.get('k', async () => ++reads);
    cache.clear();
    expect(await cache.get('k', async () => ++reads)).toBe(2);
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', async () => 'up')).toBe('up');
  });
});
