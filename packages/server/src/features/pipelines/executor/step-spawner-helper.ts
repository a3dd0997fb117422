/**
 * The source of the step spawner helper: a tiny Node process (no imports but node:child_process)
 * started once per server process, which spawns the steps' process groups on the server's behalf
 * so that fork happens from a ~40 MB process instead of the server (with PGlite, 200+ MB), and off
 * its event loop. It is run with `node -e`, so it needs no file of its own in the build.
 *
 * Its process-group handling is the same as `spawnGroup` in process-group.ts (kept in step with it):
 * the step is the leader of its own group; when the leader exits the rest of the group is killed;
 * `term` sends SIGTERM to the group, then SIGKILL after the grace period; pipes still held open by
 * an escaped process are abandoned after a second. When the server goes away (the IPC channel
 * closes), every group still running is killed and the helper exits.
 *
 * It also creates the task's scratch directory (the step's HOME) and writes a script step's file
 * before spawning it, and removes the scratch directory after the task's last step, so that a task
 * costs the server one message each way instead of a dozen thread-pool round trips.
 *
 * It runs at most SLIPWAY_STEP_SLOTS (its environment; the server's CPU count) process groups at
 * once; spawns beyond wait in its queue, in order, and start the moment a group ends, without a
 * round trip through the server's event loop (which PGlite's statements hold for milliseconds at
 * a time). `pid` tells the server a queued step has started; `term` for a queued step drops it
 * and answers `end` with `notStarted`.
 *
 * Messages in: {t:'spawn', id, file, args, cwd, env, grace, home?, script?: {path, text, mode},
 * removeAfter?},
 * {t:'term', id} and {t:'rm', id, dir}. Out: {t:'ready'}, {t:'pid', id, pid, at}, {t:'out', id,
 * s: 0|1, d: Uint8Array}, {t:'end', id, exitCode, signal, pipesAbandoned, endedAt?, spawnError?:
 * {code, message}, setupError?: string, scratchRemoved?: true, notStarted?: true} and {t:'rmdone',
 * id, error?: string}; `at` and `endedAt` are the helper's clock (epoch ms) at the start and at the
 * leader's exit.
 */
export const HELPER_SOURCE = String.raw`'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const PIPE_GRACE_MS = 1000;
const POLL_MS = 25;
const MAX_UNSENT = 64;
// bytes of a group's output sent but not yet taken in by the server (it acks after each turn of
// its event loop), so a step cannot flood the server faster than it handles lines
const MAX_UNACKED = 1 << 18;
const groups = new Map();
const SLOTS = Math.max(1, Number(process.env.SLIPWAY_STEP_SLOTS) || 1);
// spawns waiting for a slot, per tenant (organisation), FIFO; the map's order is the tenants' turn
const queues = new Map();
let running = 0;
// process groups holding a slot, per tenant, and the tenant of each spawn holding one
const runningBy = new Map();
const tenantOf = new Map();
let unsent = 0;
const paused = new Set();
function signalGroup(pgid, signal) {
  try { process.kill(-pgid, signal); return true; }
  catch (error) { if (error.code === 'ESRCH') return false; throw error; }
}
function sent() {
  unsent -= 1;
  if (unsent > MAX_UNSENT / 2 && paused.size > 0) return;
  for (const stream of paused) stream.resume();
  paused.clear();
}
function send(message) {
  if (!process.connected) return;
  unsent += 1;
  try { process.send(message, undefined, undefined, sent); } catch { unsent -= 1; }
}
function removeDir(dir) {
  // most steps leave their scratch dir empty: one rmdir, not a recursive walk
  try { fs.rmdirSync(dir); } catch { fs.rmSync(dir, { recursive: true, force: true }); }
}
function removeAfter(m, end) {
  if (!m.removeAfter) return end;
  try { removeDir(m.removeAfter); end.scratchRemoved = true; } catch {}
  return end;
}
// Fair share (the same rule as Semaphore in concurrency.ts): a queued spawn of tenant T starts
// when fewer than SLOTS run, or when T runs fewer than max(1, floor(SLOTS / tenants with running
// or queued spawns)), so another tenant's long steps cannot hold its first one back (at most
// SLOTS + the number of tenants run). Tenants take turns among those that may start.
function mayStart(tenant, share) {
  return running < SLOTS || (runningBy.get(tenant) || 0) < share;
}
function pump() {
  for (;;) {
    let tenants = runningBy.size;
    for (const tenant of queues.keys()) if (!runningBy.has(tenant)) tenants += 1;
    const share = Math.max(1, Math.floor(SLOTS / Math.max(1, tenants)));
    let next;
    for (const tenant of queues.keys()) if (mayStart(tenant, share)) { next = tenant; break; }
    if (next === undefined) return;
    const queue = queues.get(next);
    const m = queue.shift();
    queues.delete(next); // the tenant served goes to the back of the turn order
    if (queue.length > 0) queues.set(next, queue);
    running += 1;
    runningBy.set(next, (runningBy.get(next) || 0) + 1);
    tenantOf.set(m.id, next);
    start(m);
  }
}
/** The end of a spawn that held a slot: the slot passes to the next queued spawn. */
function ended(message) {
  send(message);
  running -= 1;
  const tenant = tenantOf.get(message.id);
  tenantOf.delete(message.id);
  const left = (runningBy.get(tenant) || 1) - 1;
  if (left > 0) runningBy.set(tenant, left); else runningBy.delete(tenant);
  pump();
}
function start(m) {
  const fds = [];
  if (m.home || m.script || m.mkdirs || m.fds) {
    try {
      if (m.home) fs.mkdirSync(m.home, { recursive: true, mode: 0o700 });
      // a sandbox's host user passes through the task's scratch dir to what bwrap binds from it
      if (m.home && m.owner) fs.chmodSync(m.home, 0o711);
      for (const dir of m.mkdirs || []) {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (m.owner) fs.chownSync(dir, m.owner[0], m.owner[1]);
      }
      if (m.script) fs.mkdirSync(path.dirname(m.script.path), { recursive: true });
      if (m.script) {
        fs.writeFileSync(m.script.path, m.script.text, { mode: m.script.mode });
        fs.chmodSync(m.script.path, m.script.mode);
        if (m.owner) fs.chownSync(m.script.path, m.owner[0], m.owner[1]);
      }
      // the sandbox's directories, opened here and bound by descriptor (3, 4, …)
      for (const p of m.fds || []) fds.push(fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW));
    } catch (error) {
      fds.forEach((fd) => fs.closeSync(fd));
      ended(removeAfter(m, { t: 'end', id: m.id, exitCode: null, signal: null, pipesAbandoned: false,
        setupError: String(error) }));
      return;
    }
  }
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...fds] });
  } catch (error) {
    ended({ t: 'end', id: m.id, exitCode: null, signal: null, pipesAbandoned: false,
      spawnError: { code: error.code, message: error.message } });
    return;
  } finally {
    fds.forEach((fd) => fs.closeSync(fd));
  }
  const pid = child.pid;
  const grace = m.grace;
  let exit, pipesClosed = false, pipesAbandoned = false, terminating = false;
  let groupSettled = false, pipeTimerStarted = false, finished = false;
  const timers = [];
  const finish = (end) => {
    if (finished) return;
    finished = true;
    timers.forEach(clearTimeout);
    groups.delete(m.id);
    ended(removeAfter(m, Object.assign({ t: 'end', id: m.id }, end)));
  };
  const settle = () => {
    if (!exit || !groupSettled) return;
    if (!pipesClosed) {
      if (pipeTimerStarted) return;
      pipeTimerStarted = true;
      timers.push(setTimeout(() => {
        if (pipesClosed) return;
        pipesAbandoned = true;
        child.stdout.destroy();
        child.stderr.destroy();
        pipesClosed = true;
        settle();
      }, PIPE_GRACE_MS));
      return;
    }
    finish({ exitCode: exit.code, signal: exit.signal, pipesAbandoned, endedAt: exit.at });
  };
  const killGroup = () => {
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    groupSettled = true;
    settle();
  };
  child.on('error', (error) => {
    if (pid !== undefined) return;
    finish({ exitCode: null, signal: null, pipesAbandoned: false,
      spawnError: { code: error.code, message: error.message } });
  });
  if (pid === undefined) return;
  send({ t: 'pid', id: m.id, pid, at: Date.now() });
  child.on('exit', (code, signal) => {
    exit = { code, signal, at: Date.now() };
    if (!terminating) killGroup();
    else settle();
  });
  let openPipes = 2;
  const onPipeClosed = () => {
    openPipes -= 1;
    if (openPipes > 0) return;
    pipesClosed = true;
    settle();
  };
  const group = { pid, terminate: () => {}, unacked: 0, held: [] };
  [child.stdout, child.stderr].forEach((stream, s) => {
    stream.on('data', (d) => {
      send({ t: 'out', id: m.id, s, d: d.toString('latin1') });
      group.unacked += d.length;
      if (group.unacked > MAX_UNACKED) { stream.pause(); group.held.push(stream); }
      else if (unsent > MAX_UNSENT) { stream.pause(); paused.add(stream); }
    });
    stream.on('close', onPipeClosed);
  });
  const terminate = () => {
    if (terminating || groupSettled) return;
    terminating = true;
    if (!signalGroup(pid, 'SIGTERM')) { groupSettled = true; settle(); return; }
    const deadline = Date.now() + grace;
    const poll = () => {
      if (groupSettled) return;
      if (!signalGroup(pid, 0)) { groupSettled = true; settle(); }
      else if (Date.now() >= deadline) killGroup();
      else timers.push(setTimeout(poll, POLL_MS));
    };
    timers.push(setTimeout(poll, POLL_MS));
  };
  group.terminate = terminate;
  groups.set(m.id, group);
}
process.on('message', (m) => {
  if (m.t === 'spawn') {
    const tenant = typeof m.tenant === 'string' ? m.tenant : '';
    const queue = queues.get(tenant);
    if (queue) queue.push(m); else queues.set(tenant, [m]);
    pump();
  } else if (m.t === 'term') {
    let dropped;
    for (const [tenant, queue] of queues) {
      const queued = queue.findIndex((q) => q.id === m.id);
      if (queued < 0) continue;
      [dropped] = queue.splice(queued, 1);
      if (queue.length === 0) queues.delete(tenant);
      break;
    }
    if (dropped) {
      send(removeAfter(dropped, { t: 'end', id: m.id, exitCode: null, signal: null, pipesAbandoned: false,
        notStarted: true }));
      pump(); // one tenant fewer with work can raise the others' share
    } else groups.get(m.id)?.terminate();
  }
  else if (m.t === 'ack') {
    const group = groups.get(m.id);
    if (!group) return;
    group.unacked -= m.n;
    if (group.unacked <= MAX_UNACKED / 2) group.held.splice(0).forEach((stream) => stream.resume());
  }
  else if (m.t === 'pod') podStart(m);
  else if (m.t === 'unpod') podStop(m.id);
  else if (m.t === 'rm') {
    let error;
    try { removeDir(m.dir); } catch (e) { error = String(e); }
    send({ t: 'rmdone', id: m.id, error });
  }
});
// A task's network namespace: a holder process (unshare --net, nft policy inside) and the
// slirp4netns that connects it; both end when their pipe from here closes (or on 'unpod').
const pods = new Map();
function podStart(m) {
  const pod = { holder: undefined, slirp: undefined, stopped: false };
  pods.set(m.id, pod);
  let answered = false;
  const answer = (pid, error) => {
    if (answered) return;
    answered = true;
    if (error) podStop(m.id);
    send({ t: 'podready', id: m.id, pid, error });
  };
  let err = '';
  try {
    pod.holder = spawn(m.holder.file, m.holder.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) { answer(undefined, String(error)); return; }
  pod.holder.on('error', (error) => answer(undefined, String(error)));
  pod.holder.stderr.on('data', (d) => { if (err.length < 2000) err += d.toString(); });
  pod.holder.on('exit', (code) => answer(undefined, 'the network namespace ended (' + code + '): ' + err.trim()));
  let out = '';
  pod.holder.stdout.on('data', (d) => {
    out += d.toString();
    if (!out.includes('ready') || pod.slirp || pod.stopped) return;
    const pid = pod.holder.pid;
    try {
      pod.slirp = spawn(m.slirp.file, m.slirp.args.concat([String(pid), 'tap0']),
        { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    } catch (error) { answer(undefined, String(error)); return; }
    let slirpErr = '';
    pod.slirp.stderr.on('data', (d) => { if (slirpErr.length < 2000) slirpErr += d.toString(); });
    pod.slirp.on('error', (error) => answer(undefined, String(error)));
    pod.slirp.on('exit', (code) => answer(undefined, 'slirp4netns ended (' + code + '): ' + slirpErr.trim()));
    pod.slirp.stdio[3].once('data', () => answer(pid));
  });
}
function podStop(id) {
  const pod = pods.get(id);
  if (!pod) return;
  pods.delete(id);
  pod.stopped = true;
  for (const child of [pod.slirp, pod.holder]) {
    if (!child) continue;
    child.removeAllListeners('exit');
    try { child.kill('SIGKILL'); } catch {}
  }
}
process.on('disconnect', () => {
  for (const id of [...pods.keys()]) podStop(id);
  for (const g of groups.values()) { try { process.kill(-g.pid, 'SIGKILL'); } catch {} }
  process.exit(0);
});
process.title = 'slipway-step-spawner';
send({ t: 'ready' });
`;
