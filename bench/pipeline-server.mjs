// A Slipway server for the pipeline benchmarks, in its own process (so its RSS is its own): a
// fresh embedded database (or BENCH_DATABASE_URL), one signed-in owner, the run engine on.
// Prints one JSON line {url, token, workspaceId, pid} on stdout once it listens; exits on SIGTERM.
// SLIPWAY_PGLITE_COMPILER, when set, chooses PGlite's compiler as it does for the product.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { buildApp } = await import('../packages/server/dist/app.js');
const { loadConfig } = await import('../packages/server/dist/platform/config.js');
const { openDatabase } = await import('../packages/server/dist/platform/database/database.js');
const { migrate } = await import('../packages/server/dist/platform/database/migrate.js');
const { AuthStore } = await import('../packages/server/dist/features/auth/auth-store.js');
const { hashPassword } = await import('../packages/server/dist/features/auth/passwords.js');

const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-runs-'));
const database = await openDatabase({
  databaseUrl: process.env.BENCH_DATABASE_URL,
  dataDir,
  ...(process.env.SLIPWAY_PGLITE_COMPILER ? { pgliteCompiler: process.env.SLIPWAY_PGLITE_COMPILER } : {}),
});
await migrate(database);
const ids = { org: crypto.randomUUID(), ws: crypto.randomUUID(), owner: crypto.randomUUID() };
await new AuthStore(database.db).createUserWithOrganisation({
  userId: ids.owner,
  email: `owner-${ids.owner}@bench.test`,
  firstName: 'Owner',
  lastName: 'Bench',
  passwordHash: await hashPassword('Bench!pass1'),
  emailVerified: true,
  organisationId: ids.org,
  organisationName: 'Bench',
  workspaceId: ids.ws,
});
const config = loadConfig({
  SLIPWAY_DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PORT: '0',
  // the sandbox with the host's system as each step's root (no registry here); unsandboxed with
  // SLIPWAY_LOCAL_EXECUTOR=unsandboxed, to compare
  SLIPWAY_STEP_IMAGES: process.env.SLIPWAY_STEP_IMAGES ?? 'host',
  ...(process.env.SLIPWAY_LOCAL_EXECUTOR
    ? { SLIPWAY_LOCAL_EXECUTOR: process.env.SLIPWAY_LOCAL_EXECUTOR }
    : {}),
});
const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${app.server.address().port}`;
const login = await fetch(`${url}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: `owner-${ids.owner}@bench.test`, password: 'Bench!pass1' }),
});
const { token } = await login.json();
console.log(JSON.stringify({ url, token, workspaceId: ids.ws, pid: process.pid, driver: database.driver }));

const stop = async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
