const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Parses a Go duration as Tekton writes them (`1h30m`, `90s`, `1.5h`, `500ms`, `0`) into
 * milliseconds. Returns null when the text is not a duration; negative durations are refused.
 */
export function parseDuration(text: string): number | null {
  const input = text.trim();
  if (input === '0' || input === '+0') return 0;
  const body = input.startsWith('+') ? input.slice(1) : input;
  if (body === '') return null;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < body.length) {
    const start = PART.lastIndex;
    const match = PART.exec(body);
    if (!match || match.index !== start) return null;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
  }
  return Math.round(total);
}

/** Formats milliseconds back as a Go duration (`5400000` → `1h30m0s`) for messages. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
