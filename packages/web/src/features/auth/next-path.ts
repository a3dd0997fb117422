/** Where the single sign-on round trip remembers the page to return to. */
export const NEXT_STORAGE_KEY = 'slipway.next';

/** A `next` value is followed only when it is a path on this site; anything else goes home. */
export function safeNext(next: string | null | undefined): string {
  if (next && /^\/(?![/\\])/.test(next)) return next;
  return '/dashboard';
}

export function rememberNext(next: string | null) {
  try {
    if (next) sessionStorage.setItem(NEXT_STORAGE_KEY, next);
    else sessionStorage.removeItem(NEXT_STORAGE_KEY);
  } catch {
    // without storage the user lands on the dashboard
  }
}

/** Reads and forgets the remembered page. */
export function takeRememberedNext(): string | null {
  try {
    const v = sessionStorage.getItem(NEXT_STORAGE_KEY);
    sessionStorage.removeItem(NEXT_STORAGE_KEY);
    return v;
  } catch {
    return null;
  }
}
