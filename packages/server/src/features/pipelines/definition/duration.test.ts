import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['1h30m', 5_400_000],
    ['90s', 90_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['2h0m0s', 7_200_000],
    ['0', 0],
    ['10m', 600_000],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '1', 'h', '1d', '-5m', '1h 30m', 'ten minutes'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });

  it('formats milliseconds as Go does', () => {
    expect(formatDuration(5_400_000)).toBe('1h30m0s');
    expect(formatDuration(90_000)).toBe('1m30s');
  });
});
