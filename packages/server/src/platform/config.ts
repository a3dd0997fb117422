import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigurationError } from './errors.js';

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
  runtimeSettingsFile: string | undefined;
  webDir: string;
  bodyLimit: number;
  shutdownTimeoutMs: number;
  logLevel: string;
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
    runtimeSettingsFile: c.SLIPWAY_CONFIG_FILE ? path.resolve(cwd, c.SLIPWAY_CONFIG_FILE) : undefined,
    webDir: c.SLIPWAY_WEB_DIR
      ? path.resolve(cwd, c.SLIPWAY_WEB_DIR)
      : path.join(repoRoot, 'packages/web/dist'),
    bodyLimit: c.SLIPWAY_BODY_LIMIT,
    shutdownTimeoutMs: c.SLIPWAY_SHUTDOWN_TIMEOUT_MS,
    logLevel: c.LOG_LEVEL,
  };
}
