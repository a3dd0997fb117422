// Agent heartbeats: one server process with 1,000 simulated agents connected over WebSocket
// (plain ws clients speaking the agent protocol, each with its own cluster row and token), each
// sending a heartbeat every second. Measures, over a steady window, the server's CPU (% of one
// core, from /proc/<pid>/stat), its RSS, and the heartbeat → ack round trip (p50, p99).
// On the embedded database (PGlite) and, when it answers, on PostgreSQL.
// Target: under 25% of one core, under 300 MB, p99 under 50 ms.
//
// BENCH_AGENTS (default 1000) and BENCH_SECONDS (default 30) change the load and the window.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { buildIfStale } from '../scripts/build-steps.mjs';
import { freePort, report, rssMb, waitForReady } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const WINDOW_S = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_S = 5;
const CLK_TCK = 100; // Linux USER_HZ

buildIfStale(['server']);
const { openDatabase } = await import('../packages/server/dist/platform/database/database.js');
const { migrate } = await import('../packages/server/dist/platform/database/migrate.js');
const { hashToken } = await import('../packages/server/dist/platform/keys.js');
const { AuthStore } = await import('../packages/server/dist/features/auth/auth-store.js');
const { AGENT_PROTOCOL_VERSION } = await import('../packages/contracts/dist/index.js');

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** An organisation, a workspace and AGENTS clusters with fresh tokens. */
async function seed(database) {
  await migrate(database);
  const ids = { org: randomUUID(), ws: randomUUID(), user: randomUUID() };
  await new AuthStore(database.db).createUserWithOrganisation({
    userId: ids.user,
    email: `bench-${ids.user}@bench.test`,
    firstName: 'Bench',
    lastName: 'Agents',
    passwordHash: 'x',
    emailVerified: true,
    organisationId: ids.org,
    organisationName: `Agents bench ${ids.org.slice(0, 8)}`,
    workspaceId: ids.ws,
  });
  const clusters = [];
  for (let i = 0; i < AGENTS; i++) {
    const token = `slw_agent_${randomBytes(24).toString('base64url')}`;
    clusters.push({ id: randomUUID(), token, hash: hashToken(token), name: `bench-${i}` });
  }
  for (let i = 0; i < clusters.length; i += 200) {
    const rows = clusters.slice(i, i + 200);
    await database.db
      .execute(sql`INSERT INTO clusters (id, workspace_id, name, type, status, token_hash, token_prefix)
      VALUES ${sql.join(
        rows.map(
          (c) =>
            sql`(${c.id}, ${ids.ws}, ${c.name}, 'other', 'attaching', ${c.hash}, ${c.token.slice(0, 14)})`,
        ),
        sql`, `,
      )}`);
  }
  return { ids, clusters };
}

function hello(i) {
  return {
    type: 'hello',
    protocolVersion: AGENT_PROTOCOL_VERSION,
    agentVersion: '0.1.0',
    kubernetesVersion: 'v1.31.2',
    nodeCount: 3,
    totalVcpu: 12,
    namespaces: ['default', 'kube-system', 'ozone', `team-${i}`],
    installedAddons: ['tekton'],
    storageClasses: [
      {
        name: 'standard',
        provisioner: 'rancher.io/local-path',
        reclaimPolicy: 'Delete',
        bindingMode: 'WaitForFirstConsumer',
        default: true,
      },
    ],
    limited: false,
    allowedNamespaces: [],
    heartbeatSeconds: 1,
    openStreams: [],
  };
}

/** One simulated agent: connects, says hello, then heartbeats every second, timing each ack. */
function simulatedAgent(url, cluster, i, samples) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${cluster.token}` } });
    const sent = new Map();
    let seq = 0;
    let timer = null;
    const agent = {
      socket,
      stop() {
        clearTimeout(timer);
        clearInterval(timer);
        socket.close();
      },
    };
    socket.on('open', () => socket.send(JSON.stringify(hello(i))));
    socket.on('unexpected-response', (_req, res) => reject(new Error(`agent ${i}: HTTP ${res.statusCode}`)));
    socket.on('error', reject);
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'welcome') {
        // Agents start their clocks at different moments: spread the beats over the second.
        timer = setTimeout(
          () => {
            const beat = () => {
              seq++;
              sent.set(seq, performance.now());
              socket.send(JSON.stringify({ type: 'heartbeat', seq, at: new Date().toISOString() }));
            };
            beat();
            timer = setInterval(beat, 1000);
          },
          Math.floor((i / AGENTS) * 1000),
        );
        resolve(agent);
      } else if (message.type === 'heartbeat_ack') {
        const at = sent.get(message.seq);
        sent.delete(message.seq);
        if (at !== undefined && samples.recording) samples.rtt.push(performance.now() - at);
        if (samples.recording) samples.acks++;
      }
    });
  });
}

async function measure(label, extraEnv, database) {
  const { ids, clusters } = await seed(database);
  if (label === 'pglite') await database.close();
  const dataDir = extraEnv.SLIPWAY_DATA_DIR;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['packages/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...extraEnv,
      SLIPWAY_DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agents = [];
  try {
    await waitForReady(base);
    const url = `ws://127.0.0.1:${port}/api/agent/connect`;
    const samples = { recording: false, rtt: [], acks: 0 };
    const connectStart = performance.now();
    for (let i = 0; i < clusters.length; i += 50) {
      agents.push(
        ...(await Promise.all(
          clusters.slice(i, i + 50).map((c, j) => simulatedAgent(url, c, i + j, samples)),
        )),
      );
    }
    const connectSeconds = (performance.now() - connectStart) / 1000;
    await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
    samples.recording = true;
    const cpu0 = cpuSeconds(child.pid);
    const t0 = performance.now();
    let maxRss = 0;
    const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, rssMb(child.pid))), 1000);
    await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
    clearInterval(rssTimer);
    const elapsed = (performance.now() - t0) / 1000;
    const cpuPercent = ((cpuSeconds(child.pid) - cpu0) / elapsed) * 100;
    samples.recording = false;
    maxRss = Math.max(maxRss, rssMb(child.pid));
    const windowStart = new Date(Date.now() - elapsed * 1000);
    for (const a of agents) a.stop();
    const p99 = percentile(samples.rtt, 99);
    const verdict = cpuPercent < 25 && maxRss < 300 && p99 < 50 ? 'met' : 'NOT met';
    return {
      ids,
      clusters,
      windowStart,
      connectSeconds,
      cpuPercent,
      maxRss,
      p50: percentile(samples.rtt, 50),
      p99,
      acks: samples.acks,
      elapsed,
      verdict,
    };
  } finally {
    for (const a of agents) a.stop();
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

/** Every cluster's heartbeat reached the database during the window. */
async function persisted(database, ids, windowStart) {
  const res = await database.db.execute(sql`SELECT count(*)::int AS n FROM clusters
    WHERE workspace_id = ${ids.ws} AND status = 'active' AND last_heartbeat_at >= ${windowStart.toISOString()}::timestamptz`);
  return (res.rows ?? res)[0].n;
}

async function postgresAnswers() {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

function print(label, r, stored) {
  report(`agent heartbeats (${AGENTS} agents, 1 beat/s each, ${WINDOW_S} s window) — ${label}`, {
    'agents connected in (s)': r.connectSeconds.toFixed(1),
    'heartbeats answered in window': `${r.acks} (${(r.acks / r.elapsed).toFixed(0)}/s)`,
    'server CPU (% of one core)': r.cpuPercent.toFixed(1),
    'server RSS max (MB)': r.maxRss.toFixed(0),
    'heartbeat → ack p50 (ms)': r.p50.toFixed(2),
    'heartbeat → ack p99 (ms)': r.p99.toFixed(2),
    'clusters with the heartbeat stored': `${stored} of ${AGENTS}`,
    target: '< 25% of one core, < 300 MB, p99 < 50 ms',
    verdict: stored === AGENTS ? r.verdict : 'NOT met (heartbeats not stored)',
  });
}

let failed = false;
{
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-agents-'));
  try {
    const database = await openDatabase({ dataDir });
    const r = await measure('pglite', { SLIPWAY_DATA_DIR: dataDir }, database);
    const after = await openDatabase({ dataDir });
    const stored = await persisted(after, r.ids, r.windowStart);
    await after.close();
    print('PGlite', r, stored);
    failed ||= r.verdict !== 'met' || stored !== AGENTS;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (await postgresAnswers()) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-agents-'));
  const database = await openDatabase({ databaseUrl: PG_URL, dataDir });
  let ids;
  try {
    const r = await measure('postgres', { SLIPWAY_DATA_DIR: dataDir, DATABASE_URL: PG_URL }, database);
    ids = r.ids;
    const stored = await persisted(database, r.ids, r.windowStart);
    print('PostgreSQL', r, stored);
    failed ||= r.verdict !== 'met' || stored !== AGENTS;
  } finally {
    // The organisation's workspace and clusters go with it.
    if (ids) {
      await database.db.execute(sql`DELETE FROM organisations WHERE id = ${ids.org}`);
      await database.db.execute(sql`DELETE FROM users WHERE id = ${ids.user}`);
    }
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
} else {
  console.log('\nPostgreSQL does not answer at', PG_URL, '— measured on PGlite only.');
}
process.exit(failed ? 1 : 0);
