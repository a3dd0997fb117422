/** A moment in the reader's language and locale ("24/11/2026, 10:51:00"); empty for none. */
export function formatTime(at: string | null, language: string): string {
  return at ? new Date(at).toLocaleString(language) : '';
}
