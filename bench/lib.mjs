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
