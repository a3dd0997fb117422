import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which repositories Slipway itself may fetch from (external pipelines, the built-in git-clone
 * task). By default neither `file://` (or a local path) nor a host whose address is loopback,
 * private, link-local, CGNAT, unique-local IPv6 or unspecified: such a URL would let anyone who
 * may create a pipeline read the server's own files or reach services on its network. An operator
 * admits what they need with SLIPWAY_GIT_ALLOW (see `parseGitAllow`).
 */
export const GIT_ALLOW_VARIABLE = 'SLIPWAY_GIT_ALLOW';

export const GIT_ALLOW_RULE =
  'must be a comma-separated list of file, host names, host:port, IPs or CIDRs (such as 127.0.0.1,10.0.0.0/8,git.internal:22)';

/** One entry of SLIPWAY_GIT_ALLOW. */
export type GitAllowEntry =
  | { kind: 'file' }
  | { kind: 'host'; host: string; port?: number }
  | { kind: 'ip'; address: string; family: 4 | 6; port?: number }
  | { kind: 'cidr'; address: string; prefix: number; family: 4 | 6 };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : undefined;
}

function parseEntry(raw: string): GitAllowEntry | undefined {
  const entry = raw.trim();
  if (entry.toLowerCase() === 'file') return { kind: 'file' };
  const slash = entry.indexOf('/');
  if (slash >= 0) {
    const address = entry.slice(0, slash);
    const family = isIP(address);
    const prefixText = entry.slice(slash + 1);
    if (family === 0 || !/^\d{1,3}$/.test(prefixText)) return undefined;
    const prefix = Number(prefixText);
    if (prefix > (family === 4 ? 32 : 128)) return undefined;
    return { kind: 'cidr', address, prefix, family: family === 4 ? 4 : 6 };
  }
  // [v6]:port, [v6], a bare v6, v4[:port], name[:port]
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    const port = bracketed[2] === undefined ? undefined : parsePort(bracketed[2]);
    if (isIP(bracketed[1]!) !== 6 || (bracketed[2] !== undefined && port === undefined)) return undefined;
    return { kind: 'ip', address: bracketed[1]!, family: 6, ...(port ? { port } : {}) };
  }
  if (isIP(entry) === 6) return { kind: 'ip', address: entry, family: 6 };
  const colon = entry.lastIndexOf(':');
  const host = colon >= 0 ? entry.slice(0, colon) : entry;
  const port = colon >= 0 ? parsePort(entry.slice(colon + 1)) : undefined;
  if (colon >= 0 && port === undefined) return undefined;
  const withPort = port ? { port } : {};
  if (isIP(host) === 4) return { kind: 'ip', address: host, family: 4, ...withPort };
  if (!HOST_NAME.test(host)) return undefined;
  return { kind: 'host', host: host.toLowerCase(), ...withPort };
}

/** Parses SLIPWAY_GIT_ALLOW; throws naming the first bad entry and the rule. */
export function parseGitAllow(value: string | undefined): GitAllowEntry[] {
  if (!value?.trim()) return [];
  return value
    .split(',')
    .filter((e) => e.trim() !== '')
    .map((raw) => {
      const entry = parseEntry(raw);
      if (!entry) throw new Error(`"${raw.trim()}" is not an entry: ${GIT_ALLOW_RULE}`);
      return entry;
    });
}

/** Addresses no repository URL may point at unless allowed. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d or ::ffff:XXXX:XXXX) is judged as IPv4. */
function normalise(address: string): { address: string; family: 4 | 6 } {
  if (isIP(address) === 4) return { address, family: 4 };
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted && isIP(dotted[1]!) === 4) return { address: dotted[1]!, family: 4 };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 4 };
  }
  return { address: lower, family: 6 };
}

export function isInternalAddress(address: string): boolean {
  const a = normalise(address);
  return INTERNAL.check(a.address, a.family === 4 ? 'ipv4' : 'ipv6');
}

/** Where a git URL points: a local path, or a host and port over the network. */
export type GitTarget = { kind: 'file' } | { kind: 'network'; host: string; port: number };

const DEFAULT_PORTS: Record<string, number> = { https: 443, http: 80, ssh: 22, git: 9418 };
const SCP_LIKE = /^(?:[^@/\s]+@)?(\[[^\]]+\]|[^:/\s[\]]+):(?!\/\/)/;

/** Reads a git URL the way git does: scheme://, scp-like user@host:path, or a local path. */
export function gitTargetOf(url: string): GitTarget | { kind: 'unsupported'; scheme: string } {
  const u = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(u)?.[1]?.toLowerCase();
  if (scheme) {
    if (scheme === 'file') return { kind: 'file' };
    const port = DEFAULT_PORTS[scheme];
    if (port === undefined) return { kind: 'unsupported', scheme };
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      return { kind: 'unsupported', scheme };
    }
    const host = parsed.hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    return { kind: 'network', host, port: parsed.port ? Number(parsed.port) : port };
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(u)) return { kind: 'unsupported', scheme: u.split('::')[0]! };
  const scp = SCP_LIKE.exec(u);
  if (scp && !u.startsWith('/') && !u.startsWith('.')) {
    const host = scp[1]!
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    return { kind: 'network', host, port: 22 };
  }
  return { kind: 'file' };
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why a URL was refused: a message naming the rule and how an operator allows it. */
export class GitUrlRefused extends Error {}

/**
 * Checks repository URLs against the default refusals and SLIPWAY_GIT_ALLOW. Host names are
 * resolved (every address, as the system resolver answers, so `localhost` too) and each address
 * must be public or admitted by an entry. A name that does not resolve is left to git, which
 * cannot reach it either.
 */
export class GitUrlPolicy {
  private readonly allowed = new BlockList();
  /** IP entries with a port admit that address on that port only. */
  private readonly allowedOnPort: Array<{ port: number; list: BlockList }> = [];
  private readonly allowFile: boolean;

  constructor(
    private readonly entries: readonly GitAllowEntry[] = [],
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.allowFile = entries.some((e) => e.kind === 'file');
    for (const e of entries) {
      if (e.kind === 'cidr') {
        const n = normalise(e.address);
        const prefix = n.family === 4 && e.family === 6 ? Math.max(0, e.prefix - 96) : e.prefix;
        this.allowed.addSubnet(n.address, prefix, n.family === 4 ? 'ipv4' : 'ipv6');
      } else if (e.kind === 'ip') {
        const n = normalise(e.address);
        const list = e.port ? new BlockList() : this.allowed;
        list.addAddress(n.address, n.family === 4 ? 'ipv4' : 'ipv6');
        if (e.port) this.allowedOnPort.push({ port: e.port, list });
      }
    }
  }

  /** Whether file:// URLs (and local paths) are allowed. */
  get fileAllowed(): boolean {
    return this.allowFile;
  }

  /** Resolves when git may fetch from the URL; rejects with GitUrlRefused saying why. */
  async check(url: string): Promise<void> {
    const target = gitTargetOf(url);
    if (target.kind === 'unsupported')
      throw new GitUrlRefused(
        `${target.scheme} is not a protocol Slipway fetches from: use https://, http://, ssh://, git:// or user@host:path`,
      );
    if (target.kind === 'file') {
      if (this.allowFile) return;
      throw new GitUrlRefused(
        `file:// URLs and local paths read the server's own files; an operator can allow them with ${GIT_ALLOW_VARIABLE}=file`,
      );
    }
    const { host, port } = target;
    if (this.entries.some((e) => e.kind === 'host' && e.host === host && (!e.port || e.port === port)))
      return;
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = await this.resolve(host);
      } catch {
        return; // unresolvable: git fails on it with its own message
      }
    }
    for (const address of addresses) {
      if (!isInternalAddress(address) || this.admits(address, port)) continue;
      const named = address === host ? host : `${host} (${address})`;
      throw new GitUrlRefused(
        `${named} is a private or loopback address; an operator can allow it with ${GIT_ALLOW_VARIABLE}`,
      );
    }
  }

  private admits(address: string, port: number): boolean {
    const a = normalise(address);
    const type = a.family === 4 ? 'ipv4' : 'ipv6';
    if (this.allowed.check(a.address, type)) return true;
    return this.allowedOnPort.some((e) => e.port === port && e.list.check(a.address, type));
  }
}
