import type { ConnectionOptions } from 'node:tls';
import { Client, type Entry } from 'ldapts';
import type { DirectoryGroup } from './group-roles.js';
import { fillFilter } from './ldap-filter.js';

/** How Slipway reaches a directory: the connection part of the SSO settings. */
export interface LdapConnection {
  url: string;
  bindDn: string;
  bindPassword: string;
  baseDn: string;
  userQuery: string;
  groupQuery: string;
  emailAttribute: string;
  tls: { startTls: boolean; skipTlsVerify: boolean; caCertificate: string };
}

export interface DirectoryPerson {
  dn: string;
  email: string | null;
  givenName: string | null;
  surname: string | null;
  commonName: string | null;
  groups: DirectoryGroup[];
}

/** Words for an LDAP failure: ldapts's result errors carry a class name and code, often no text. */
export function describeLdapError(err: unknown): string {
  const e = err as { name?: string; code?: unknown; message?: string };
  const text = (e.message ?? '').replace(/\s*Code: 0x[0-9a-f]+\s*$/i, '').trim();
  if (typeof e.code === 'number' && e.name && e.name.endsWith('Error') && e.name !== 'Error') {
    const words = e.name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1 $2');
    const title = words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
    return `${title} (LDAP result ${e.code})${text ? `: ${text}` : ''}`;
  }
  return text || String(err);
}

/** The directory as the SSO service needs it; LdaptsDirectory talks to a real server. */
export interface Directory {
  /** Binds as the service account and reads the base DN; throws with the server's words. */
  test(conn: LdapConnection): Promise<void>;
  /** The person, when the user query finds exactly one entry and the password binds as it. */
  authenticate(conn: LdapConnection, username: string, password: string): Promise<DirectoryPerson | null>;
}

const TIMEOUTS = { connectTimeout: 5_000, timeout: 10_000 };

function attribute(entry: Entry, name: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const raw = key ? entry[key] : undefined;
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (first === undefined) return null;
  const text = (Buffer.isBuffer(first) ? first.toString('utf8') : String(first)).trim();
  return text || null;
}

/** Certificate checks for ldaps:// and StartTLS: the given CA (or the system's), unless skipped. */
function tlsOptionsOf(conn: LdapConnection): ConnectionOptions {
  return {
    minVersion: 'TLSv1.2',
    rejectUnauthorized: !conn.tls.skipTlsVerify,
    ...(conn.tls.caCertificate ? { ca: [conn.tls.caCertificate] } : {}),
  };
}

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** A client on the connection's URL, upgraded with StartTLS first when the settings ask for it. */
async function withClient<T>(conn: LdapConnection, use: (client: Client) => Promise<T>): Promise<T> {
  const tlsOptions = tlsOptionsOf(conn);
  // ldapts speaks TLS from the first byte whenever it is given TLS options: only for ldaps://.
  const ldaps = conn.url.toLowerCase().startsWith('ldaps://');
  const client = new Client({ url: conn.url, ...(ldaps ? { tlsOptions } : {}), ...TIMEOUTS });
  try {
    // the certificate is checked against the URL's host (the upgrade has no host of its own)
    if (conn.tls.startTls && !ldaps) await client.startTLS({ ...tlsOptions, host: hostOf(conn.url) });
    return await use(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

export class LdaptsDirectory implements Directory {
  async test(conn: LdapConnection): Promise<void> {
    await withClient(conn, async (client) => {
      await client.bind(conn.bindDn, conn.bindPassword);
      await client.search(conn.baseDn, {
        scope: 'base',
        filter: '(objectClass=*)',
        attributes: ['dn'],
        sizeLimit: 1,
      });
    }).catch((err: unknown) => {
      throw new Error(describeLdapError(err));
    });
  }

  async authenticate(
    conn: LdapConnection,
    username: string,
    password: string,
  ): Promise<DirectoryPerson | null> {
    // An empty password would be an unauthenticated bind, which servers accept (RFC 4513 §5.1.2).
    if (!username || !password) return null;
    return withClient(conn, async (service) => {
      await service.bind(conn.bindDn, conn.bindPassword);
      const { searchEntries } = await service.search(conn.baseDn, {
        scope: 'sub',
        filter: fillFilter(conn.userQuery, { username }),
        attributes: [conn.emailAttribute, 'givenName', 'sn', 'cn'],
        sizeLimit: 2,
      });
      if (searchEntries.length !== 1) return null;
      const entry = searchEntries[0]!;
      const bound = await withClient(conn, async (asUser) => {
        await asUser.bind(entry.dn, password);
        return true;
      }).catch(() => false);
      if (!bound) return null;
      const groups = await service.search(conn.baseDn, {
        scope: 'sub',
        filter: fillFilter(conn.groupQuery, { dn: entry.dn, username }),
        attributes: ['cn'],
        sizeLimit: 1000,
      });
      return {
        dn: entry.dn,
        email: attribute(entry, conn.emailAttribute),
        givenName: attribute(entry, 'givenName'),
        surname: attribute(entry, 'sn'),
        commonName: attribute(entry, 'cn'),
        groups: groups.searchEntries.map((g) => ({ dn: g.dn, cn: attribute(g, 'cn') })),
      };
    });
  }
}
