/**
 * Where the backend lives (spec §7, Bases). The API is the page's own origin followed by /api.
 * A development build may point elsewhere with VITE_SLIPWAY_API_BASE (an absolute URL); the
 * Vite dev server's default is its own /api proxy to a running server (see vite.config.ts).
 */
export function apiBaseUrl(location: Pick<Location, 'origin'> = window.location): string {
  const override = import.meta.env.VITE_SLIPWAY_API_BASE as string | undefined;
  return override ? override.replace(/\/+$/, '') : `${location.origin}/api`;
}

/**
 * The websocket base follows the same rule with the page's hostname. The spec asks for a secure
 * websocket; browsers refuse wss: to a plain-HTTP server, so plain-HTTP installs (loopback) use
 * ws: — see docs/decisions/005-websocket-scheme.md.
 */
export function wsBaseUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/ws`;
}

/** The runtime settings document at the site origin (spec §7). */
export function runtimeSettingsUrl(location: Pick<Location, 'origin'> = window.location): string {
  return `${location.origin}/config/config.json`;
}
