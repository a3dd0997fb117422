import { webSocketProtocols } from '@slipway/contracts';
import { wsBaseUrl } from '../../app/endpoints';
import type { AuthState } from '../auth/auth-slice';

/** A socket to a pod's log (follow) or terminal, with the session carried as the API expects. */
export function openPodSocket(
  clusterId: string,
  what: 'logs' | 'exec',
  query: Record<string, string | undefined>,
  auth: Pick<AuthState, 'token' | 'projectId' | 'fingerprint'>,
): WebSocket {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) q.set(k, v);
  return new WebSocket(
    `${wsBaseUrl()}/clusters/${encodeURIComponent(clusterId)}/${what}?${q.toString()}`,
    webSocketProtocols({
      authorization: auth.token,
      workspace: auth.projectId,
      fingerprint: auth.fingerprint,
    }),
  );
}
