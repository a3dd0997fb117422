/**
 * The signed-in session survives a reload: the token and the workspace are kept in localStorage
 * under `slipway.auth`. A browser without storage (private mode, blocked cookies) keeps them for
 * this page only.
 */
export const AUTH_STORAGE_KEY = 'slipway.auth';
/** The browser fingerprint code, made once per browser and sent as X-BrowserFingerprint. */
export const FINGERPRINT_STORAGE_KEY = 'slipway.fingerprint';

export interface StoredSession {
  token: string | null;
  projectId: string | null;
}

const EMPTY: StoredSession = { token: null, projectId: null };

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function asString(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

export function loadSession(): StoredSession {
  try {
    const raw = storage()?.getItem(AUTH_STORAGE_KEY);
    if (!raw) return EMPTY;
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const token = asString(parsed.token);
    return token ? { token, projectId: asString(parsed.projectId) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** Saves the session; a session without a token removes the key. */
export function saveSession(session: StoredSession): void {
  try {
    const s = storage();
    if (!s) return;
    if (session.token) {
      s.setItem(AUTH_STORAGE_KEY, JSON.stringify({ token: session.token, projectId: session.projectId }));
    } else {
      s.removeItem(AUTH_STORAGE_KEY);
    }
  } catch {
    // storage full or refused: the session then lasts for this page only
  }
}

function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** This browser's fingerprint code: read from storage, or made and stored the first time. */
export function browserFingerprint(): string {
  const s = storage();
  try {
    const existing = s?.getItem(FINGERPRINT_STORAGE_KEY);
    if (existing) return existing;
  } catch {
    // fall through and make one for this page
  }
  const id = randomId();
  try {
    s?.setItem(FINGERPRINT_STORAGE_KEY, id);
  } catch {
    // kept for this page only
  }
  return id;
}
