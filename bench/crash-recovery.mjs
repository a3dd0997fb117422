// Crash recovery: a real server process (the built dist, `node packages/server/dist/main.js`, the
// embedded database, sandboxed steps on the host's system) gets 20 runs whose tasks print
// numbered lines over a few seconds; once several steps are counting and some of their lines are
// stored, the server is killed with SIGKILL. Its detached step supervisor keeps the steps running;
// the server is started again on the same data directory, re-attaches, and every run must end
// succeeded with every task's numbered lines stored exactly once and in order.
// Target: kill -9 during 20 runs: 20 succeed, 0 lines lost or repeated.
//
// Figures: how long the server was down (SIGKILL → the new process answers /api/readyz), the
// time from the restart to the last run's end, and the lines expected / lost / repeated / out of
// order over all runs. Only the two server processes started here are signalled (by pid); the
// supervisor leaves by itself once idle. BENCH_RUNS (20) and BENCH_LINES (40) change the load.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const { buildIfStale } = await import('../scripts/build-steps.mjs');
buildIfStale(['server']);
const dist = '../packages/server/dist/';
const { openDatabase } = await import(`${dist}platform/database/database.js`);
const { migrate } = await import(`${dist}platform/database/migrate.js`);
const { AuthStore } = await import(`${dist}features/auth/auth-store.js`);
const { hashPassword } = await import(`${dist}features/auth/passwords.js`);
const { probeSandbox } = await import(`${dist}features/pipelines/executor/sandbox/probe.js`);
const MAIN = fileURLToPath(new URL(`${dist}main.js`, import.meta.url));

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const LINES = Number(process.env.BENCH_LINES ?? 40);
const TASKS = ['first', 'second'];
const FINISHED = ['succeeded', 'failed', 'timed_out', 'cancelled'];

/** Two tasks in a row, each printing numbered lines (about 2 s and 1 s), as the crash test's. */
const COUNTING = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: counting }
spec:
  tasks:
    - name: first
      taskSpec:
        steps:
          - name: count
            image: alpine
            script: |
              for i in $(seq 1 ${LINES}); do echo "first line $i"; sleep 0.05; done
    - name: second
      runAfter: [first]
      taskSpec:
        steps:
          - name: count
            image: alpine
            script: |
              for i in $(seq 1 ${LINES}); do echo "second line $i"; sleep 0.02; done
`;

const probeDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-probe-'));
chmodSync(probeDir, 0o711);
const support = probeSandbox({ stateDir: probeDir, hostUser: { uid: 880000, gid: 880000 } });
rmSync(probeDir, { recursive: true, force: true });
if (!support.available) throw new Error(`no sandbox here: ${support.reason}`);

// the data directory's parent lets the sandbox's host user pass (o+x), as the product asks
const parent = mkdtempSync(path.join(tmpdir(), 'slipway-bench-crash-'));
chmodSync(parent, 0o711);
const dataDir = path.join(parent, 'data');
mkdirSync(dataDir, { mode: 0o711 });
const email = 'crash@bench.test';
const password = 'Crash!pass1';
{
  const database = await openDatabase({ dataDir });
  await migrate(database);
  await new AuthStore(database.db).createUserWithOrganisation({
    userId: crypto.randomUUID(),
    email,
    firstName: 'Crash',
    lastName: 'Bench',
    passwordHash: await hashPassword(password),
    emailVerified: true,
    organisationId: crypto.randomUUID(),
    organisationName: 'Crash',
    workspaceId: crypto.randomUUID(),
  });
  await database.close();
}

/** `node dist/main.js` on the data directory; answers {child, url (a promise), output()}. */
function startServer() {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      SLIPWAY_DATA_DIR: dataDir,
      SLIPWAY_STEP_IMAGES: 'host',
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Slipway is serving at (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 10);
    child.once('exit', (code, signal) => {
      clearInterval(timer);
      reject(new Error(`the server exited (${code ?? signal}): ${out.slice(-2000)}`));
    });
  });
  url.catch(() => undefined);
  return { child, url, exited, output: () => out };
}

async function ready(url, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/api/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`${url} not ready in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function waitFor(check, timeoutMs, what) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const answer = await check();
    if (answer) return answer;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every numbered line of one task in a run's log: lost, repeated and out-of-order counts. */
function checkLines(logs, task) {
  const prefix = `[${task}/count] ${task} line `;
  const numbers = logs
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .map((l) => Number(l.slice(prefix.length)));
  const seen = new Map();
  for (const n of numbers) seen.set(n, (seen.get(n) ?? 0) + 1);
  let lost = 0;
  let repeated = 0;
  for (let i = 1; i <= LINES; i++) {
    const count = seen.get(i) ?? 0;
    if (count === 0) lost++;
    else repeated += count - 1;
  }
  const stray = numbers.filter((n) => !(n >= 1 && n <= LINES)).length;
  const inOrder = numbers.every((n, i) => i === 0 || n > numbers[i - 1]);
  // the step started once: a re-run after the restart would log "Running step" again
  const starts = logs.split('\n').filter((l) => l.startsWith(`[${task}/count] Running step`)).length;
  return { lost, repeated: repeated + stray, inOrder, starts };
}

let server = startServer();
try {
  let url = await server.url;
  await ready(url);
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { token, projectId } = await login.json();
  const headers = {
    authorization: `Bearer ${token}`,
    'x-workspace-id': projectId,
    'content-type': 'application/json',
  };
  const api = async (method, route, body) => {
    const res = await fetch(`${url}/api/${route}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return text;
  };

  const pipeline = JSON.parse(await api('POST', 'pipelines', { name: 'counting', definition: COUNTING }));
  const ids = [];
  const queuedAt = performance.now();
  for (let i = 0; i < RUNS; i++)
    ids.push(JSON.parse(await api('POST', 'pipelineruns', { pipelineId: pipeline.id })).id);

  // wait until a few runs have ended and at least two tasks are counting, some of their lines
  // stored and not all (mid-step): the kill then finds runs ended, counting and waiting
  let midStep = [];
  let ended = 0;
  await waitFor(
    async () => {
      midStep = [];
      ended = 0;
      for (const id of ids) {
        const run = JSON.parse(await api('GET', `pipelineruns/${id}`));
        if (FINISHED.includes(run.status)) ended++;
        if (run.status !== 'in_progress') continue;
        const logs = await api('GET', `pipelineruns/${id}/logs`);
        for (const task of TASKS) {
          const has = (n) => new RegExp(`\\] ${task} line ${n}(\\n|$)`).test(logs);
          if (has(5) && !has(LINES)) midStep.push(`${id}/${task}`);
        }
      }
      return midStep.length >= Math.min(2, RUNS) && ended >= Math.floor(RUNS / 5);
    },
    60_000,
    'steps to be counting',
  );
  const before = await Promise.all(
    ids.map(async (id) => JSON.parse(await api('GET', `pipelineruns/${id}`)).status),
  );
  const countOf = (status) => before.filter((s) => s === status).length;

  const killedAt = performance.now();
  process.kill(server.child.pid, 'SIGKILL');
  await server.exited;

  const restartedAt = performance.now();
  const restartedWall = Date.now();
  server = startServer();
  url = await server.url;
  await ready(url);
  const backAt = performance.now();

  const runs = await waitFor(
    async () => {
      const all = [];
      for (const id of ids) {
        const run = JSON.parse(await api('GET', `pipelineruns/${id}`));
        if (!FINISHED.includes(run.status)) return false;
        all.push(run);
      }
      return all;
    },
    150_000,
    'every run to finish after the restart',
  );
  const allDoneAt = Math.max(...runs.map((r) => Date.parse(r.finishedAt)));
  const restartToDone = allDoneAt - restartedWall;

  let succeeded = 0;
  let lost = 0;
  let repeated = 0;
  let disordered = 0;
  let restarted = 0;
  const problems = [];
  for (const run of runs) {
    if (run.status === 'succeeded') succeeded++;
    else problems.push(`run ${run.number} ${run.status}: ${run.reason}`);
    const logs = await api('GET', `pipelineruns/${run.id}/logs`);
    for (const task of TASKS) {
      const c = checkLines(logs, task);
      lost += c.lost;
      repeated += c.repeated;
      if (!c.inOrder) disordered++;
      if (c.starts !== 1) restarted++;
      if (c.lost || c.repeated || !c.inOrder || c.starts !== 1)
        problems.push(
          `run ${run.number} ${task}: ${c.lost} lost, ${c.repeated} repeated${c.inOrder ? '' : ', out of order'}, started ${c.starts}×`,
        );
    }
  }
  const expected = RUNS * TASKS.length * LINES;
  const met = succeeded === RUNS && lost === 0 && repeated === 0 && disordered === 0 && restarted === 0;
  report(`crash recovery: kill -9 during ${RUNS} runs (2 tasks × ${LINES} numbered lines each)`, {
    'at the kill': `${((killedAt - queuedAt) / 1000).toFixed(1)} s after queueing; ${midStep.length} tasks mid-step; runs ${countOf('succeeded')} succeeded, ${countOf('in_progress')} in progress, ${countOf('pending')} pending`,
    'server down, SIGKILL → restarted server ready (ms)': (backAt - killedAt).toFixed(0),
    '  of which the new process starting → ready (ms)': (backAt - restartedAt).toFixed(0),
    'restart → all runs finished (s)': (restartToDone / 1000).toFixed(1),
    'runs succeeded': `${succeeded} / ${RUNS}`,
    'lines expected': expected,
    'lines lost': lost,
    'lines repeated': repeated,
    'tasks with lines out of order': disordered,
    'steps started more than once (or never)': restarted,
    ...(problems.length ? { problems: problems.slice(0, 10).join('; ') } : {}),
    target: `${RUNS} succeed, 0 lines lost or repeated`,
    verdict: met ? 'met' : 'NOT met',
  });
  if (!met) process.exitCode = 1;
} finally {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    process.kill(server.child.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(server.child.pid, 'SIGKILL'), 15_000);
    await server.exited;
    clearTimeout(timer);
  }
  // the step supervisor leaves by itself once no server is connected and nothing runs; its
  // socket goes with it (under the supervisor directory, or /tmp for a long path)
  const supervisor = path.join(dataDir, 'supervisor');
  const until = Date.now() + 10_000;
  while (existsSync(path.join(supervisor, 's.sock')) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
  rmSync(parent, { recursive: true, force: true });
}
