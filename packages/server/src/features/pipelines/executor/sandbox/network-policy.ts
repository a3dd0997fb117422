import type { NetAllowEntry } from '../../../../platform/net-allow.js';

export { NetAllowError, parseNetAllow, type NetAllowEntry } from '../../../../platform/net-allow.js';

/**
 * The network a sandboxed task gets (decision 020): its own network namespace, reaching out
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
