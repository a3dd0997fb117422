// Authorisation overhead: an authenticated, permission-checked, workspace-scoped list request
// through the whole Slipway app, against a bare Fastify route doing the same query, on the same
// machine and database, with autocannon on loopback (50 connections).
// Target: at least 40% of the bare route's throughput, p99 under 20 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { buildIfStale } from '../scripts/build-steps.mjs';
import { report } from './lib.mjs';

buildIfStale(['server']);
const { buildApp } = await import('../packages/server/dist/app.js');
const { loadConfig } = await import('../packages/server/dist/platform/config.js');
const { openDatabase } = await import('../packages/server/dist/platform/database/database.js');
const { migrate } = await import('../packages/server/dist/platform/database/migrate.js');
const { inWorkspace } = await import('../packages/server/dist/platform/auth/principal.js');
const { AuthStore } = await import('../packages/server/dist/features/auth/auth-store.js');
const { hashPassword } = await import('../packages/server/dist/features/auth/passwords.js');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir });
await migrate(database);

// One organisation with a workspace of 20 members; the caller is a developer in it.
const store = new AuthStore(database.db);
const ids = { org: crypto.randomUUID(), ws: crypto.randomUUID(), owner: crypto.randomUUID() };
await store.createUserWithOrganisation({
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
for (let i = 0; i < 20; i++) {
  const id = crypto.randomUUID();
  await database.db.execute(
    sql`INSERT INTO users (id, email, first_name, last_name) VALUES (${id}, ${`m${i}-${id}@bench.test`}, 'M', ${String(i)})`,
  );
  await database.db.execute(
    sql`INSERT INTO organisation_members VALUES (${ids.org}, ${id}, 'member', now())`,
  );
  await store.addWorkspaceMember(ids.ws, id, 'developer');
}

const listMembers = async (workspaceId) => {
  const res = await database.db.execute(sql`
    SELECT u.id, u.first_name, u.last_name, u.email, wm.role FROM workspace_members wm
    JOIN users u ON u.id = wm.user_id WHERE wm.workspace_id = ${workspaceId} ORDER BY u.email LIMIT 10`);
  return res.rows ?? res;
};

async function listen(app) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${app.server.address().port}`;
}

const bare = Fastify({ logger: false });
bare.get('/bench/members', async (request, reply) => {
  reply.header('X-Total-Count', '20');
  return listMembers(request.headers['x-workspace-id']);
});
const bareUrl = await listen(bare);

const config = loadConfig({ SLIPWAY_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' });
const app = await buildApp({ config, database, logger: false });
app.get('/api/bench/members', { config: { access: inWorkspace('members:view') } }, async (request, reply) => {
  reply.header('X-Total-Count', '20');
  return listMembers(request.workspaceId);
});
const appUrl = await listen(app);
const login = await fetch(`${appUrl}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: `owner-${ids.owner}@bench.test`, password: 'Bench!pass1' }),
});
const { token } = await login.json();
const headers = { authorization: `Bearer ${token}`, 'x-workspace-id': ids.ws };
const check = await fetch(`${appUrl}/api/bench/members`, { headers });
if (check.status !== 200) throw new Error(`the checked route answered ${check.status}`);

const run = (url) => autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
await run(`${bareUrl}/bench/members`); // warm-up of both paths is a short first pass
const bareResult = await run(`${bareUrl}/bench/members`);
await autocannon({ url: `${appUrl}/api/bench/members`, connections: CONNECTIONS, duration: 3, headers });
const appResult = await run(`${appUrl}/api/bench/members`);
if (appResult.non2xx > 0) throw new Error(`${appResult.non2xx} non-2xx answers from the checked route`);

const ratio = appResult.requests.average / bareResult.requests.average;
report('authorisation overhead (autocannon, 50 connections)', {
  database: database.driver,
  'bare route (req/s)': bareResult.requests.average.toFixed(0),
  'bare route p99 (ms)': bareResult.latency.p99,
  'checked route (req/s)': appResult.requests.average.toFixed(0),
  'checked route p99 (ms)': appResult.latency.p99,
  'checked / bare': `${(ratio * 100).toFixed(0)}%`,
  target: '>= 40% of bare, p99 < 20 ms',
  verdict: ratio >= 0.4 && appResult.latency.p99 < 20 ? 'met' : 'NOT met',
});
await app.close();
await bare.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
