import { DOCKER_HUB_REGISTRY } from './reference.js';
import type { RegistryAuth, RegistryCredentials } from './types.js';

/** The host a docker config.json `auths` key names: `https://host:5000/v2/` → `host:5000`. */
export function credentialsKeyHost(key: string): string {
  const host = key
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/\/.*$/, '')
    .toLowerCase();
  return host === 'docker.io' || host === 'index.docker.io' ? DOCKER_HUB_REGISTRY : host;
}

/** The credentials for a registry host from a docker config `auths` map, if any. */
export function findRegistryAuth(
  credentials: RegistryCredentials | undefined,
  registry: string,
): RegistryAuth | undefined {
  if (!credentials) return undefined;
  const wanted = registry.toLowerCase();
  for (const [key, auth] of Object.entries(credentials)) {
    if (auth && credentialsKeyHost(key) === wanted) return auth;
  }
  return undefined;
}

/** user and password from an `auths` entry (`auth` is base64 `user:password`). */
export function basicCredentials(
  auth: RegistryAuth | undefined,
): { username: string; password: string } | undefined {
  if (!auth) return undefined;
  if (auth.username !== undefined && auth.password !== undefined && auth.username !== '') {
    return { username: auth.username, password: auth.password };
  }
  if (auth.auth) {
    const decoded = Buffer.from(auth.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return undefined;
}

export function basicHeader(creds: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${creds.username}:${creds.password}`, 'utf8').toString('base64')}`;
}

export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses `Bearer realm="…",service="…",scope="…"` (the first challenge of the header). */
export function parseWwwAuthenticate(header: string | null): AuthChallenge | undefined {
  if (!header) return undefined;
  const match = /^\s*([A-Za-z][\w-]*)\s*(.*)$/s.exec(header);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  const re = /([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?\s*/gy;
  const rest = match[2] ?? '';
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest)) !== null && m[0] !== '') {
    params[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
  }
  return { scheme: match[1]!.toLowerCase(), params };
}
