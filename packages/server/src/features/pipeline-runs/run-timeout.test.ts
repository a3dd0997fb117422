import { describe, expect, it } from 'vitest';
import type { PipelineOutcome } from '../pipelines/definition/index.js';
import { effectiveTimeout, finalStatus } from './run-status.js';

const HOUR = 3_600_000;

describe("a run's effective timeout", () => {
  it('is its own timeout when its organisation has no cap, or a longer one', () => {
    expect(effectiveTimeout(HOUR, null)).toEqual({
      ms: HOUR,
      reason: 'the run exceeded its timeout of 1h0m0s',
    });
    expect(effectiveTimeout(HOUR, 60).ms).toBe(HOUR);
    expect(effectiveTimeout(HOUR, 10_080).reason).toBe('the run exceeded its timeout of 1h0m0s');
  });

  it("is the organisation's cap when shorter, and the reason names the organisation's limit", () => {
    expect(effectiveTimeout(HOUR, 1)).toEqual({
      ms: 60_000,
      reason: "the run exceeded the organisation's limit of 1 minute",
    });
    expect(effectiveTimeout(2 * HOUR, 90)).toEqual({
      ms: 90 * 60_000,
      reason: "the run exceeded the organisation's limit of 90 minutes",
    });
    // tests shorten the minute; the reason still counts minutes
    expect(effectiveTimeout(HOUR, 5, 100)).toEqual({
      ms: 500,
      reason: "the run exceeded the organisation's limit of 5 minutes",
    });
  });

  it('ends a timed-out run with the reason of the timeout that applied', () => {
    const timedOut: PipelineOutcome = {
      status: 'Failed',
      reason: 'PipelineRunTimeout',
      message: '',
      counts: { succeeded: 0, failed: 0, skipped: 0, incomplete: 1 },
    };
    expect(finalStatus(timedOut, effectiveTimeout(HOUR, 1), undefined, undefined)).toEqual({
      status: 'timed_out',
      reason: "the run exceeded the organisation's limit of 1 minute",
    });
    expect(finalStatus(timedOut, HOUR, undefined, undefined)).toEqual({
      status: 'timed_out',
      reason: 'the run exceeded its timeout of 1h0m0s',
    });
  });
});
