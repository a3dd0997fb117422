import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isIP } from 'node:net';
import { ConfigurationError } from './errors.js';
import { parseNetAllow, type NetAllowEntry } from './net-allow.js';
import { parseGitAllow, type GitAllowEntry } from './git-url-policy.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const port = z.coerce
  .number({ message: 'must be a whole number from 0 to 65535' })
  .int('must be a whole number from 0 to 65535')
  .min(0, 'must be a whole number from 0 to 65535')
  .max(65535, 'must be a whole number from 0 to 65535');

const positiveInt = (rule: string) => z.coerce.number({ message: rule }).int(rule).positive(rule);

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

/** SLIPWAY_OIDC_<NAME>_ISSUER, _CLIENT_ID and _CLIENT_SECRET: one OpenID provider's settings. */
function oidcVariables<N extends string>(name: N) {
  return {
    [`SLIPWAY_OIDC_${name}_ISSUER`]: optionalString.pipe(
      z
        .string()
        .regex(/^https?:\/\//, 'must be the issuer URL, http:// or https://')
        .optional(),
    ),
    [`SLIPWAY_OIDC_${name}_CLIENT_ID`]: optionalString,
    [`SLIPWAY_OIDC_${name}_CLIENT_SECRET`]: optionalString,
  } as Record<`SLIPWAY_OIDC_${N}_${'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET'}`, typeof optionalString>;
}

const TRUST_PROXY_RULE =
  'must be false, true, a number of proxy hops (such as 1), or a comma-separated list of proxy IPs or CIDRs (such as 10.0.0.0/8,127.0.0.1)';

/** SLIPWAY_TRUST_PROXY as Fastify's trustProxy takes it. */
const trustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
  const v = value.trim().toLowerCase();
  if (v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim());
  const ok = entries.every((e) => {
    const [address, prefix, ...rest] = e.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || rest.length > 0) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  });
  if (!ok) {
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_RULE });
    return z.NEVER;
  }
  return entries;
});

/** SLIPWAY_GIT_ALLOW: what git may fetch from besides public hosts. */
const gitAllow = z.string().transform((value, ctx): GitAllowEntry[] => {
  try {
    return parseGitAllow(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

export interface OidcProviderConfig {
  id: 'google' | 'azure';
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Server settings from the environment. Every variable is documented in the README. */
export const serverConfigSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  SLIPWAY_DATA_DIR: z.string().min(1, 'must not be empty').default('.slipway'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_MAX: positiveInt('must be a whole number of 1 or more').default(10),
  SLIPWAY_CONFIG_FILE: optionalString,
  SLIPWAY_WEB_DIR: optionalString,
  SLIPWAY_BODY_LIMIT: positiveInt('must be a whole number of bytes, 1 or more').default(1024 * 1024),
  SLIPWAY_SHUTDOWN_TIMEOUT_MS: positiveInt('must be a whole number of milliseconds, 1 or more').default(
    10_000,
  ),
  SLIPWAY_MASTER_KEY: optionalString,
  SLIPWAY_PUBLIC_URL: optionalString.pipe(
    z
      .string()
      .regex(/^https?:\/\/[^/]+/, 'must be an http:// or https:// URL')
      .optional(),
  ),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  SMTP_FROM: z
    .string()
    .min(3, 'must be an address such as Slipway <no-reply@example.com>')
    .default('Slipway <no-reply@slipway.local>'),
  ...oidcVariables('GOOGLE'),
  ...oidcVariables('AZURE'),
  SLIPWAY_ENGINE: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  SLIPWAY_AGENT_IMAGE: z
    .string()
    .trim()
    .regex(
      /^[a-z0-9][a-z0-9._\-/:@]*$/i,
      'must be an image reference such as registry.example.com/slipway/agent:0.1.0',
    )
    .optional(),
  SLIPWAY_STEP_SPAWNER: z
    .enum(['helper', 'in-process'], { message: 'must be helper or in-process' })
    .default('helper'),
  SLIPWAY_LOCAL_EXECUTOR: z
    .enum(['sandbox', 'unsandboxed'], { message: 'must be sandbox or unsandboxed' })
    .default('sandbox'),
  SLIPWAY_STEP_IMAGES: z.enum(['pull', 'host'], { message: 'must be pull or host' }).default('pull'),
  SLIPWAY_SANDBOX_NET_ALLOW: z
    .string()
    .optional()
    .transform((text, ctx) => {
      try {
        return parseNetAllow(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  SLIPWAY_SANDBOX_READ_ONLY_PATHS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      const paths = (text ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      for (const p of paths) {
        if (!path.isAbsolute(p) || path.normalize(p) !== p || p === '/')
          ctx.addIssue({
            code: 'custom',
            message: `"${p}" must be an absolute, normalised path other than /`,
          });
      }
      return paths;
    }),
  SLIPWAY_SANDBOX_UID: z.coerce
    .number({ message: 'must be a whole number from 1 to 4294967294' })
    .int('must be a whole number from 1 to 4294967294')
    .min(1, 'must be a whole number from 1 to 4294967294')
    .max(4294967294, 'must be a whole number from 1 to 4294967294')
    .default(880000),
  SLIPWAY_SANDBOX_MAX_PROCESSES: z.coerce
    .number({ message: 'must be a whole number from 16 to 1048576' })
    .int('must be a whole number from 16 to 1048576')
    .min(16, 'must be a whole number from 16 to 1048576')
    .max(1048576, 'must be a whole number from 16 to 1048576')
    .default(512),
  SLIPWAY_PGLITE_COMPILER: z
    .enum(['baseline', 'optimising'], { message: 'must be baseline or optimising' })
    .default('baseline'),
  SLIPWAY_TRUST_PROXY: trustProxy.optional(),
  SLIPWAY_GIT_ALLOW: gitAllow.optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
});

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /**
   * How the embedded database's WebAssembly is compiled: baseline keeps the server small,
   * optimising makes long scans about 30% faster for some 70 MB more memory.
   */
  pgliteCompiler: 'baseline' | 'optimising';
  /** The agent image the attach YAML names; unset: slipway/agent:<version>. */
  agentImage: string | undefined;
  /** Who forks pipeline steps: a small helper process (decision 015) or the server itself. */
  stepSpawner: 'helper' | 'in-process';
  /** Local steps run sandboxed (decision 019), or unsandboxed for a single organisation. */
  localExecutor: 'sandbox' | 'unsandboxed';
  /** A sandboxed step's root: its image pulled from its registry, or the host's system read-only. */
  stepImages: 'pull' | 'host';
  /** Addresses a sandboxed step may reach besides the public internet (SLIPWAY_SANDBOX_NET_ALLOW). */
  sandboxNetAllow: NetAllowEntry[];
  /** The unprivileged host uid (and gid) of sandboxes when the server runs as root. */
  sandboxUid: number;
  /** Processes (RLIMIT_NPROC) one sandboxed step may run at once (SLIPWAY_SANDBOX_MAX_PROCESSES). */
  sandboxMaxProcesses: number;
  /** Host directories every sandbox sees read-only at the same path (SLIPWAY_SANDBOX_READ_ONLY_PATHS). */
  sandboxReadOnlyPaths: string[];
  runtimeSettingsFile: string | undefined;
  webDir: string;
  bodyLimit: number;
  shutdownTimeoutMs: number;
  logLevel: string;
  masterKey: string | undefined;
  /** The address people reach Slipway at, for links in mails; defaults to http://HOST:PORT. */
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Whether this process runs the pipeline reconcile loop (off: API only). */
  engineEnabled: boolean;
  /** OpenID Connect providers for G Suite and Azure sign-in, each on when all three are set. */
  oidcProviders: OidcProviderConfig[];
  /**
   * Which proxies' X-Forwarded-For names the client (Fastify's trustProxy): none (false), all
   * (true), a number of hops, or the proxies' IPs and CIDRs.
   */
  trustProxy: boolean | number | string[];
  /** What git may fetch from beyond public hosts (SLIPWAY_GIT_ALLOW): file, hosts, IPs, CIDRs. */
  gitAllow: GitAllowEntry[];
  /** Tests keep PGlite in memory. */
  inMemoryDatabase?: boolean;
}

/** Reads the environment; a bad value throws a ConfigurationError naming the variable and rule. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  // An empty variable means "not set" (PORT= must not mean port 0, a random port).
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = serverConfigSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigurationError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(cwd, c.SLIPWAY_DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    databasePoolMax: c.DATABASE_POOL_MAX,
    pgliteCompiler: c.SLIPWAY_PGLITE_COMPILER,
    agentImage: c.SLIPWAY_AGENT_IMAGE,
    stepSpawner: c.SLIPWAY_STEP_SPAWNER,
    localExecutor: c.SLIPWAY_LOCAL_EXECUTOR,
    stepImages: c.SLIPWAY_STEP_IMAGES,
    sandboxNetAllow: c.SLIPWAY_SANDBOX_NET_ALLOW,
    sandboxUid: c.SLIPWAY_SANDBOX_UID,
    sandboxMaxProcesses: c.SLIPWAY_SANDBOX_MAX_PROCESSES,
    sandboxReadOnlyPaths: c.SLIPWAY_SANDBOX_READ_ONLY_PATHS,
    runtimeSettingsFile: c.SLIPWAY_CONFIG_FILE ? path.resolve(cwd, c.SLIPWAY_CONFIG_FILE) : undefined,
    webDir: c.SLIPWAY_WEB_DIR
      ? path.resolve(cwd, c.SLIPWAY_WEB_DIR)
      : path.join(repoRoot, 'packages/web/dist'),
    bodyLimit: c.SLIPWAY_BODY_LIMIT,
    shutdownTimeoutMs: c.SLIPWAY_SHUTDOWN_TIMEOUT_MS,
    logLevel: c.LOG_LEVEL,
    masterKey: c.SLIPWAY_MASTER_KEY,
    engineEnabled: c.SLIPWAY_ENGINE === 'on',
    trustProxy: c.SLIPWAY_TRUST_PROXY ?? false,
    gitAllow: c.SLIPWAY_GIT_ALLOW ?? [],
    publicUrl: c.SLIPWAY_PUBLIC_URL?.replace(/\/+$/, ''),
    smtpUrl: c.SMTP_URL,
    smtpFrom: c.SMTP_FROM,
    oidcProviders: [
      oidcProvider(
        'google',
        'G Suite',
        c.SLIPWAY_OIDC_GOOGLE_ISSUER,
        c.SLIPWAY_OIDC_GOOGLE_CLIENT_ID,
        c.SLIPWAY_OIDC_GOOGLE_CLIENT_SECRET,
      ),
      oidcProvider(
        'azure',
        'Azure',
        c.SLIPWAY_OIDC_AZURE_ISSUER,
        c.SLIPWAY_OIDC_AZURE_CLIENT_ID,
        c.SLIPWAY_OIDC_AZURE_CLIENT_SECRET,
      ),
    ].filter((p): p is OidcProviderConfig => p !== undefined),
  };
}

function oidcProvider(
  id: OidcProviderConfig['id'],
  name: string,
  issuer: string | undefined,
  clientId: string | undefined,
  clientSecret: string | undefined,
): OidcProviderConfig | undefined {
  return issuer && clientId && clientSecret ? { id, name, issuer, clientId, clientSecret } : undefined;
}
