import { AGENT_DEFAULT_ALLOWED_NAMESPACES, AGENT_DEFAULT_HEARTBEAT_SECONDS } from '@slipway/contracts';

export interface CliOptions {
  server: string;
  token: string;
  kubeconfig?: string;
  context?: string;
  heartbeatSeconds: number;
  limited: boolean;
  allowedNamespaces: string[];
}

export const USAGE = `Usage: slipway-agent --server <url> --token <token> [options]

  --server <url>              the Slipway server, e.g. https://slipway.example.com   (SLIPWAY_SERVER)
  --token <token>             the cluster's agent token                              (SLIPWAY_AGENT_TOKEN)
  --kubeconfig <file>         a kubeconfig; without one the in-cluster config is used (KUBECONFIG)
  --context <name>            the kubeconfig context to use                          (SLIPWAY_KUBE_CONTEXT)
  --heartbeat-seconds <n>     how often to send a heartbeat (default ${AGENT_DEFAULT_HEARTBEAT_SECONDS})       (SLIPWAY_HEARTBEAT_SECONDS)
  --limited                   work only in the allowed namespaces                    (SLIPWAY_LIMITED=true)
  --allowed-namespaces <a,b>  the namespaces of a limited agent (default ${AGENT_DEFAULT_ALLOWED_NAMESPACES.join(',')}) (SLIPWAY_ALLOWED_NAMESPACES)
  --help                      show this help`;

const FLAGS: Record<string, keyof CliOptions | 'help'> = {
  '--server': 'server',
  '--token': 'token',
  '--kubeconfig': 'kubeconfig',
  '--context': 'context',
  '--heartbeat-seconds': 'heartbeatSeconds',
  '--limited': 'limited',
  '--allowed-namespaces': 'allowedNamespaces',
  '--help': 'help',
};

/**
 * Flags win over environment variables. Throws an Error naming the flag and the rule for bad
 * input; returns 'help' for --help.
 */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions | 'help' {
  const given: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const key = FLAGS[flag];
    if (!key) throw new Error(`Unknown option ${flag}\n\n${USAGE}`);
    if (key === 'help') return 'help';
    if (key === 'limited') {
      given.limited = inline === undefined ? true : inline;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    given[key] = value;
  }
  const pick = (key: string, envName: string): string | undefined => {
    const v = given[key];
    if (typeof v === 'string') return v;
    return env[envName] || undefined;
  };
  const server = pick('server', 'SLIPWAY_SERVER');
  if (!server) throw new Error('--server is required (or SLIPWAY_SERVER)');
  if (!/^(https?|wss?):\/\/[^\s/]+/.test(server)) {
    throw new Error('--server must be an http(s):// or ws(s):// address, e.g. https://slipway.example.com');
  }
  const token = pick('token', 'SLIPWAY_AGENT_TOKEN');
  if (!token) throw new Error('--token is required (or SLIPWAY_AGENT_TOKEN)');
  const heartbeatRaw = pick('heartbeatSeconds', 'SLIPWAY_HEARTBEAT_SECONDS');
  const heartbeatSeconds =
    heartbeatRaw === undefined ? AGENT_DEFAULT_HEARTBEAT_SECONDS : Number(heartbeatRaw);
  if (!Number.isFinite(heartbeatSeconds) || heartbeatSeconds < 1 || heartbeatSeconds > 300) {
    throw new Error('--heartbeat-seconds must be a number from 1 to 300');
  }
  const limitedRaw = given.limited ?? env.SLIPWAY_LIMITED;
  const limited = limitedRaw === true || limitedRaw === 'true' || limitedRaw === '1';
  const namespacesRaw = pick('allowedNamespaces', 'SLIPWAY_ALLOWED_NAMESPACES');
  const allowedNamespaces = namespacesRaw
    ? namespacesRaw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [...AGENT_DEFAULT_ALLOWED_NAMESPACES];
  for (const ns of allowedNamespaces) {
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(ns)) {
      throw new Error(
        `--allowed-namespaces: "${ns}" is not a namespace name (lowercase letters, digits and '-', at most 63)`,
      );
    }
  }
  if (limited && allowedNamespaces.length === 0)
    throw new Error('--allowed-namespaces: a limited agent needs at least one namespace');
  const kubeconfig = pick('kubeconfig', 'SLIPWAY_KUBECONFIG');
  const context = pick('context', 'SLIPWAY_KUBE_CONTEXT');
  return {
    server,
    token,
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(context ? { context } : {}),
    heartbeatSeconds,
    limited,
    allowedNamespaces,
  };
}
