import { describe, expect, it, vi } from 'vitest';
import type { StoredLine } from './chunk-codec.js';
import { encodeChunk } from './chunk-codec.js';
import { LogHub, RECENT_LINES, RECENT_LINES_HELD, type LogChunk } from './log-hub.js';

const lines = (n: number): StoredLine[] =>
  Array.from({ length: n }, (_, i) => ({ seq: i + 1, at: 0, stream: 'stdout', step: 's', text: String(i) }));
const chunk = (id: number, n: number): LogChunk => ({
  id,
  runId: 'r',
  taskRunId: 't',
  columns: encodeChunk(lines(n)),
});

describe('LogHub', () => {
  it('keeps the latest RECENT_LINES lines, and more for a socket that has not taken them yet', () => {
    const hub = new LogHub();
    const fast = () => {};
    const slow = () => {};
    hub.subscribe('r', fast);
    hub.subscribe('r', slow);
    const per = RECENT_LINES / 4;
    for (let id = 1; id <= 8; id++) {
      hub.publish('r', { kind: 'chunk', chunk: chunk(id, per) });
      hub.progress('r', fast, id);
      if (id <= 2) hub.progress('r', slow, id);
    }
    // the slow socket took chunk 2: chunks 3.. are held for it, beyond the recent window
    expect(hub.recent('r', 2, 100)?.map((c) => c.id)).toEqual([3, 4, 5, 6, 7, 8]);
    // and never beyond RECENT_LINES_HELD
    for (let id = 9; id <= 9 + RECENT_LINES_HELD / per; id++) {
      hub.publish('r', { kind: 'chunk', chunk: chunk(id, per) });
      hub.progress('r', fast, id);
    }
    expect(hub.recent('r', 2, 100)).toBeUndefined();
  });

  it('lets go of what only a departed socket needed', () => {
    const hub = new LogHub();
    const fast = () => {};
    const slow = () => {};
    hub.subscribe('r', fast);
    const leave = hub.subscribe('r', slow);
    const per = RECENT_LINES / 2;
    hub.publish('r', { kind: 'chunk', chunk: chunk(1, per) });
    hub.progress('r', fast, 1);
    hub.progress('r', slow, 1);
    leave();
    for (let id = 2; id <= 5; id++) {
      hub.publish('r', { kind: 'chunk', chunk: chunk(id, per) });
      hub.progress('r', fast, id);
    }
    expect(hub.recent('r', 1, 100)).toBeUndefined();
    expect(hub.recent('r', 3, 100)?.map((c) => c.id)).toEqual([4, 5]);
  });

  it('shares a full page read back from the database, and reads a short one again', async () => {
    const hub = new LogHub();
    hub.subscribe('r', () => {});
    const read = vi.fn(async () => [chunk(5, 1), chunk(6, 1)]);
    const first = await hub.page('r', 4, 2, read);
    const second = await hub.page('r', 4, 2, read);
    expect(second).toBe(first);
    expect(read).toHaveBeenCalledTimes(1);
    const short = vi.fn(async () => [chunk(7, 1)]);
    await hub.page('r', 6, 2, short);
    await hub.page('r', 6, 2, short);
    expect(short).toHaveBeenCalledTimes(2);
  });
});
