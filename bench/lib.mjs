// Shared helpers for the benchmarks: free ports, waiting for readiness, process RSS.
import { readFileSync } from 'node:fs';
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function waitForReady(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(`${url}/api/readyz`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resident set size of a process in MB, from /proc. */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** The pid of the node process serving the port (npm start runs node under npm and sh). */
export function descendants(pid) {
  const out = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    let children = '';
    try {
      children = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
    } catch {
      continue;
    }
    for (const c of children.split(/\s+/).filter(Boolean).map(Number)) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function report(name, figures) {
  console.log(`\n## ${name}`);
  for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
}

/**
 * Starts bench/pipeline-server.mjs in a child process; answers {url, token, workspaceId, pid,
 * headers, stop()}. The server is built first when its sources changed.
 */
export async function startPipelineServer(env = {}, execArgv = []) {
  const { spawn } = await import('node:child_process');
  const { buildIfStale } = await import('../scripts/build-steps.mjs');
  buildIfStale(['server']);
  const child = spawn(
    process.execPath,
    [...execArgv, new URL('./pipeline-server.mjs', import.meta.url).pathname],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const headers = {
    authorization: `Bearer ${info.token}`,
    'x-workspace-id': info.workspaceId,
    'content-type': 'application/json',
  };
  return {
    ...info,
    headers,
    async api(method, path, body) {
      const res = await fetch(`${info.url}/api/${path}`, {
        method,
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Polls a run's detail (every task and step) until it has finished, and answers it. The studio's
 * run view polls the same detail once a second; this polls every 250 ms (BENCH_POLL_MS), so the
 * watching is part of the load measured, as four people watching the run would be.
 */
export async function runFinished(server, id, timeoutMs = 600_000) {
  const until = Date.now() + timeoutMs;
  const pollMs = Number(process.env.BENCH_POLL_MS ?? 250);
  for (;;) {
    const run = await server.api('GET', `pipelineruns/${id}`);
    if (['succeeded', 'failed', 'timed_out', 'cancelled'].includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`run ${id} did not finish in time`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}
