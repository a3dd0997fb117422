/** A time as the reader's locale writes it, or the fallback when there is none. */
export function formatAt(at: string | null, language: string, fallback = '—'): string {
  if (!at) return fallback;
  return new Date(at).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A number, or a dash when unknown. */
export function orDash(value: number | string | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}
