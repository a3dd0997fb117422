// A newcomer's first green run, measured from a fresh clone: `git clone` → `npm ci` → `npm start`
// (building on first start) → sign up (the code from the outbox mail) → attach a cluster (the real
// agent from the clone, `npm run agent`) → bind the development environment → quick setup of the
// Node.js template → its first pipeline run green (clone, test, build and push, deploy).
// Goal: < 3 minutes on these machines.
//
// What is not real here, and why: no Kubernetes can run on these machines, so the cluster is the
// project's protocol-level Kubernetes API server (the agent talks to it with the official client)
// and this script plays the Deployment controller (it marks the applied Deployment available); no
// public base image can be pulled, so the template is built on `scratch` (baseImage) and steps use
// the host's system as their root (SLIPWAY_STEP_IMAGES=host). npm's cache is as this machine has it.
//
// `node bench/newcomer.mjs [checkout]`: clones `checkout` (default this repository's HEAD).
// BENCH_KEEP=1 keeps the clone and its data directory.
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { freePort, report, waitForReady } from './lib.mjs';

const source = path.resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const work = mkdtempSync(path.join(tmpdir(), 'slipway-newcomer-'));
// the sandbox's host user passes through to the data directory (never reads it)
chmodSync(work, 0o711);
const clone = path.join(work, 'slipway');
const dataDir = path.join(work, 'data');
const PASSWORD = 'Newcomer!pass1';
const EMAIL = 'newcomer@bench.test';

const laps = [];
let last = performance.now();
const started = last;
const lap = (name) => {
  const now = performance.now();
  laps.push([name, now - last]);
  last = now;
};
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function poll(what, probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const children = [];
function start(command, args, env = {}) {
  const child = spawn(command, args, {
    cwd: clone,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  children.push(child);
  return { child, stderr: () => err };
}

let base = '';
let headers = {};
async function call(method, url, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

let api;
try {
  execFileSync('git', ['clone', '--quiet', source, clone], { stdio: 'inherit' });
  lap('git clone');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: clone, stdio: 'ignore' });
  lap('npm ci');

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const server = start('npm', ['start', '--silent'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    SLIPWAY_DATA_DIR: dataDir,
    SLIPWAY_STEP_IMAGES: 'host',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  });
  await waitForReady(base, 300_000).catch((err) => {
    throw new Error(`${err.message}\n${server.stderr()}`);
  });
  lap('npm start (first start: builds, initdb)');

  await call('POST', '/api/auth/signup', {
    firstName: 'New',
    lastName: 'Comer',
    email: EMAIL,
    password: PASSWORD,
  });
  const outbox = path.join(dataDir, 'outbox');
  const code = await poll(
    'the verification mail',
    async () => {
      if (!existsSync(outbox)) return null;
      for (const file of readdirSync(outbox)) {
        const subject = /^Subject: .*?(\d{6})\s*$/m.exec(readFileSync(path.join(outbox, file), 'utf8'));
        if (subject) return subject[1];
      }
      return null;
    },
    30_000,
  );
  const session = await call('POST', '/api/auth/verify_code', { email: EMAIL, code });
  headers = { authorization: `Bearer ${session.token}`, 'x-workspace-id': session.projectId };
  lap('sign up and verify');

  // the cluster: attach through the API, run the agent from the clone with the YAML's token
  const { cluster, attach } = await call('POST', '/api/clusters', {
    name: 'trial',
    type: 'other',
    publicRegistryPrefix: new URL(base).host,
  });
  const secret = parseAllDocuments(attach.yaml)
    .map((d) => d.toJS())
    .find((o) => o?.kind === 'Secret');
  const token = secret?.stringData?.token;
  if (!token) throw new Error('no token in the attach YAML');
  execFileSync('node', ['scripts/build.mjs', 'agent'], { cwd: clone, stdio: 'ignore' });
  const { KubeApiServer } = await import(
    pathToFileURL(path.join(clone, 'packages/agent/dist/test-support/kube-api-server.js')).href
  );
  api = await KubeApiServer.start();
  api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
  const kubeconfig = path.join(work, 'kubeconfig');
  writeFileSync(kubeconfig, api.kubeconfig());
  start('npm', [
    'run',
    'agent',
    '--silent',
    '--',
    '--server',
    base,
    '--token',
    token,
    '--kubeconfig',
    kubeconfig,
  ]);
  await poll(
    'the agent',
    async () => (await call('GET', `/api/clusters/${cluster.id}`)).status === 'active',
    60_000,
  );
  const [dev] = await call('GET', '/api/environments?name=development');
  await call('PUT', `/api/environments/${dev.id}`, {
    clusterId: cluster.id,
    namespace: 'apps',
    taskRunner: 'server',
  });
  lap('attach a cluster, bind development');

  const setup = await call('POST', '/api/admin/quicksetup/createonboardingresources?id=nodejs', {
    name: 'hello',
    environmentIds: [dev.id],
    baseImage: 'scratch',
  });
  lap('quick setup (repository, credentials, pipeline, application)');
  let applied = false;
  const run = await poll(
    'the first run',
    async () => {
      if (!applied && api.get('apps/v1', 'Deployment', 'hello', 'apps')) {
        applied = true;
        api.setStatus('apps/v1', 'Deployment', 'apps', 'hello', {
          observedGeneration: 1,
          replicas: 1,
          updatedReplicas: 1,
          readyReplicas: 1,
          availableReplicas: 1,
        });
      }
      const found = await call('GET', `/api/pipelineruns/${setup.runId}`);
      return ['succeeded', 'failed', 'timed_out', 'cancelled'].includes(found.status) && found;
    },
    300_000,
  );
  if (run.status !== 'succeeded') {
    const logs = await fetch(`${base}/api/pipelineruns/${run.id}/logs`, { headers }).then((r) => r.text());
    throw new Error(`the first run ${run.status}: ${run.reason}\n${logs}`);
  }
  lap('first run: clone → test → build and push → deploy, green');

  const total = performance.now() - started;
  report('newcomer: fresh clone to the first green run (goal < 3 min)', {
    ...Object.fromEntries(laps.map(([name, ms]) => [name, seconds(ms)])),
    total: `${seconds(total)} (${total < 180_000 ? 'within' : 'OVER'} the 3-minute goal)`,
    'tasks of the first run': run.taskRuns
      .map((t) => `${t.name} ${seconds(Date.parse(t.finishedAt) - Date.parse(t.startedAt))}`)
      .join(', '),
    'load average at the end': loadavg()[0].toFixed(2),
  });
  if (total >= 180_000) process.exitCode = 1;
} finally {
  for (const child of children.reverse()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
  }
  await api?.close();
  if (process.env.BENCH_KEEP) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
