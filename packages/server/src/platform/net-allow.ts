import { isIP } from 'node:net';

/**
 * SLIPWAY_SANDBOX_NET_ALLOW: what a sandboxed step may reach besides the public internet (decision
 * 020). Parsed with the configuration; the sandbox's network policy (executor/sandbox/
 * network-policy.ts) turns the entries into nftables rules.
 */
/** One operator allow-list entry: a host address or network, optionally one TCP/UDP port. */
export interface NetAllowEntry {
  /** An IPv4/IPv6 address or CIDR. */
  network: string;
  family: 4 | 6;
  port?: number;
  /** The entry names the host's own loopback: reached through the gateway (10.0.2.2). */
  loopback: boolean;
}

export class NetAllowError extends Error {}

function isLoopback(network: string): boolean {
  return network.startsWith('127.') || network === '::1' || network === '::1/128';
}

/**
 * Parses `SLIPWAY_SANDBOX_NET_ALLOW`: comma-separated `address`, `address:port`, `cidr`,
 * `[ipv6]:port` entries; e.g. `127.0.0.1:5000,10.1.0.0/16,192.168.1.20:443`. Host names are
 * refused: the policy is enforced on addresses, and a name's addresses may change.
 */
export function parseNetAllow(text: string | undefined): NetAllowEntry[] {
  const entries: NetAllowEntry[] = [];
  for (const raw of (text ?? '').split(',')) {
    const item = raw.trim();
    if (!item) continue;
    let host = item;
    let port: number | undefined;
    const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(item);
    if (v6) {
      host = v6[1]!;
      port = v6[2] !== undefined ? Number(v6[2]) : undefined;
    } else if (/^[^:]+:\d+$/.test(item)) {
      const at = item.lastIndexOf(':');
      host = item.slice(0, at);
      port = Number(item.slice(at + 1));
    }
    const [address, bits, extra] = host.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (
      extra !== undefined ||
      family === 0 ||
      (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits)) ||
      (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
    ) {
      throw new NetAllowError(
        `"${item}" is not an IP address, a CIDR network or address:port (host names are not accepted)`,
      );
    }
    entries.push({
      network: host,
      family: family as 4 | 6,
      ...(port ? { port } : {}),
      loopback: isLoopback(host),
    });
  }
  return entries;
}
