const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in the reader's language, in the largest unit under 1000 of it ("12.3 MB"); '—' for none. */
export function formatSize(bytes: number | null, language: string): string {
  if (bytes === null) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** A digest as people compare them: `sha256:` and its first 12 hex digits. */
export function shortDigest(digest: string): string {
  const [algorithm, hex = ''] = digest.split(':');
  return hex ? `${algorithm}:${hex.slice(0, 12)}` : digest;
}

/** Monospace text that stays left-to-right in Arabic and wraps anywhere on a phone. */
export const CODE_SX = {
  fontFamily: 'monospace',
  overflowWrap: 'anywhere',
  whiteSpace: 'pre-wrap',
} as const;
