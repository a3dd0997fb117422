import { applyCommonHeaders } from './api';
import { apiBaseUrl } from './endpoints';
import type { AuthState } from '../features/auth/auth-slice';

/** The file name the server suggests in content-disposition, else the fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return m?.[1] ?? fallback;
}

/**
 * Downloads an API file with the session's headers (a plain link would not send them): fetch,
 * then save the blob through a temporary link. Answers the HTTP status when it failed.
 */
export async function downloadApiFile(
  path: string,
  auth: AuthState,
  fallbackName: string,
): Promise<number | null> {
  const res = await fetch(`${apiBaseUrl()}/${path}`, { headers: applyCommonHeaders(new Headers(), auth) });
  if (!res.ok) return res.status;
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return null;
}
