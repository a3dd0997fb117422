import { describe, expect, it } from 'vitest';
import { executorFanout, plainFanout } from './fanout-probe.js';

describe('fanout probe (smoke; the measurement itself lives in bench/)', () => {
  it('times a few tasks through the executor and the same processes bare', async () => {
    expect(await executorFanout(4, 2)).toBeGreaterThan(0);
    expect(await plainFanout(4, 2)).toBeGreaterThan(0);
  });
});
