import { isIP } from 'node:net';

/**
 * The network a sandboxed task gets (decision 019): its own network namespace, reaching out
 * through slirp4netns, with an nftables policy inside that namespace refusing the host's loopback
 * and every private, link-local, CGNAT, multicast and unique-local address, unless the operator
 * allowed it (`SLIPWAY_SANDBOX_NET_ALLOW`).
 */

/** slirp4netns' fixed addresses: the gateway (the host's loopback behind it) and its DNS. */
export const SLIRP_GATEWAY = '10.0.2.2';
export const SLIRP_DNS = '10.0.2.3';

const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
];
const BLOCKED_V6 = ['::/128', '::1/128', '::ffff:0:0/96', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

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

function portMatch(port: number | undefined): string {
  return port === undefined ? '' : ` meta l4proto { tcp, udp } th dport ${port}`;
}

/**
 * The nftables ruleset loaded inside a task's network namespace before any step runs. The
 * sandbox's processes hold no capability over that namespace (it belongs to the host's user
 * namespace), so they can neither read nor change it.
 */
export function nftRules(allow: readonly NetAllowEntry[]): string {
  const loopbackPorts = allow.filter((a) => a.loopback && a.family === 4);
  const lines: string[] = [];
  lines.push('table ip slipway_nat {');
  lines.push('  chain output { type nat hook output priority -100; policy accept;');
  for (const entry of loopbackPorts)
    lines.push(`    ip daddr ${entry.network}${portMatch(entry.port)} dnat to ${SLIRP_GATEWAY}`);
  lines.push('  }');
  lines.push('  chain postrouting { type nat hook postrouting priority 100; policy accept;');
  lines.push('    oifname "tap0" ip saddr 127.0.0.0/8 masquerade');
  lines.push('  }');
  lines.push('}');
  lines.push('table inet slipway {');
  lines.push('  chain output { type filter hook output priority 0; policy accept;');
  lines.push('    oifname "lo" accept');
  lines.push(`    ip daddr ${SLIRP_DNS} meta l4proto { tcp, udp } th dport 53 accept`);
  for (const entry of loopbackPorts)
    lines.push(`    ip daddr ${SLIRP_GATEWAY}${portMatch(entry.port)} accept`);
  for (const entry of allow.filter((a) => !a.loopback))
    lines.push(
      `    ${entry.family === 4 ? 'ip' : 'ip6'} daddr ${entry.network}${portMatch(entry.port)} accept`,
    );
  lines.push(`    ip daddr { ${BLOCKED_V4.join(', ')} } reject`);
  lines.push(`    ip6 daddr { ${BLOCKED_V6.join(', ')} } reject`);
  lines.push('  }');
  lines.push('}');
  return lines.join('\n') + '\n';
}
