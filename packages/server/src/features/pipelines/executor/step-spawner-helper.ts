/**
 * The source of the step supervisor (decisions 015, 019): a small Node process (node: builtins
 * only, run with `node -e`, so it needs no file of its own in the build) that spawns the steps'
 * process groups on the server's behalf, so that fork happens from a ~40 MB process instead of
 * the server, off its event loop, and so that steps outlive the server: like containerd's shim, it
 * is started detached, serves the server over a Unix socket (SLIPWAY_SUPERVISOR_SOCKET), keeps
 * running its groups when the server dies, writes every group's output to a spool file
 * (SLIPWAY_SUPERVISOR_SPOOL) and keeps each ended group's end until the server has stored it
 * (`release`). A restarted server re-attaches by the group's key: a `spawn` whose key the
 * supervisor knows starts nothing; it answers the group's start, replays its output from the
 * spool and, once it has ended, its end.
 *
 * Its process-group handling is the same as `spawnGroup` in process-group.ts (kept in step with it):
 * the step is the leader of its own group; when the leader exits the rest of the group is killed;
 * `term` sends SIGTERM to the group, then SIGKILL after the grace period; pipes still held open by
 * an escaped process are abandoned after a second.
 *
 * It also creates the task's scratch directory (the step's HOME) and writes a script step's file
 * before spawning it, and removes the scratch directory after the task's last step, so that a task
 * costs the server one message each way instead of a dozen thread-pool round trips.
 *
 * It runs at most SLIPWAY_STEP_SLOTS process groups at once, shared fairly between tenants; spawns
 * beyond wait in its queue and start the moment a group ends, without a round trip through the
 * server's event loop. `pid` tells the server a queued step has started; `term` for a queued step
 * drops it and answers `end` with `notStarted`.
 *
 * Several servers may be connected (replicas sharing a data directory), each holding the groups it
 * spawned or re-attached to. It exits when no server is connected and nothing runs: at once when
 * nothing is left to claim, else ORPHAN_MS after the last group of a server that died ended.
 *
 * Messages (JSON lines) in: {t:'spawn', id, key, file, args, cwd, env, grace, tenant?, home?,
 * script?: {path, text, mode}, removeAfter?, mkdirs?, owner?, fds?}, {t:'term', id}, {t:'ack', id,
 * n}, {t:'rm', id, dir}, {t:'pod', id, key, holder, slirp}, {t:'unpod', key}, {t:'release',
 * prefix}, {t:'known', id, prefix}. Out: {t:'ready', pid}, {t:'pid', id, pid, at}, {t:'out', id,
 * s: 0|1, d: latin1 string}, {t:'end', id, exitCode, signal, pipesAbandoned, endedAt?,
 * spawnError?: {code, message}, setupError?: string, scratchRemoved?: true, notStarted?: true},
 * {t:'rmdone', id, error?}, {t:'podready', id, pid?, error?} and {t:'knownis', id, keys}; `at` and
 * `endedAt` are the supervisor's clock (epoch ms) at the start and at the leader's exit.
 */
export const HELPER_SOURCE = String.raw`'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const PIPE_GRACE_MS = 1000;
const POLL_MS = 25;
const ORPHAN_MS = 10 * 60 * 1000;
// bytes of a group's output sent but not yet taken in by the server (it acks after each turn of
// its event loop), so a step cannot flood the server faster than it handles lines
const MAX_UNACKED = 1 << 18;
const SOCKET = process.env.SLIPWAY_SUPERVISOR_SOCKET;
const SPOOL = process.env.SLIPWAY_SUPERVISOR_SPOOL;
const SLOTS = Math.max(1, Number(process.env.SLIPWAY_STEP_SLOTS) || 1);
// every group by key, running or ended and not yet released; each held by one server connection
// (rec.conn), which names it by its own id (rec.id; conn.byId)
const byKey = new Map();
// spawns waiting for a slot, per tenant (organisation), FIFO; the map's order is the tenants' turn
const queues = new Map();
let running = 0;
// process groups holding a slot, per tenant, and the tenant of each spawn holding one
const runningBy = new Map();
const tenantOf = new Map();
// the servers connected: {socket, byId, writable, paused}
const conns = new Set();
let orphanTimer;
function signalGroup(pgid, signal) {
  try { process.kill(-pgid, signal); return true; }
  catch (error) { if (error.code === 'ESRCH') return false; throw error; }
}
function send(c, message) {
  if (!c || !conns.has(c)) return;
  if (!c.socket.write(JSON.stringify(message) + '\n')) c.writable = false;
}
/** A message about a group goes to the server that holds it now (by its id for the group). */
function sendFor(rec, message) {
  if (!rec.conn || rec.id === undefined) return;
  message.id = rec.id;
  send(rec.conn, message);
}
function hold(rec, c, id) {
  if (rec.conn && rec.conn.byId.get(rec.id) === rec) rec.conn.byId.delete(rec.id);
  rec.conn = c;
  rec.id = id;
  if (c) c.byId.set(id, rec);
}
function spoolWrite(rec, s, d) {
  if (rec.spool === undefined) return;
  const head = Buffer.alloc(5);
  head[0] = s;
  head.writeUInt32BE(d.length, 1);
  try { fs.writeSync(rec.spool, head); fs.writeSync(rec.spool, d); } catch {}
}
function spoolReplay(rec) {
  if (!rec.spoolPath) return;
  let all;
  try { all = fs.readFileSync(rec.spoolPath); } catch { return; }
  for (let at = 0; at + 5 <= all.length; ) {
    const n = all.readUInt32BE(at + 1);
    if (at + 5 + n > all.length) break;
    sendFor(rec, { t: 'out', s: all[at], d: all.subarray(at + 5, at + 5 + n).toString('latin1') });
    at += 5 + n;
  }
}
function forget(rec) {
  byKey.delete(rec.key);
  hold(rec, undefined, undefined);
  if (rec.spool !== undefined) { try { fs.closeSync(rec.spool); } catch {} rec.spool = undefined; }
  if (rec.spoolPath) { try { fs.unlinkSync(rec.spoolPath); } catch {} }
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
    const rec = queue.shift();
    queues.delete(next); // the tenant served goes to the back of the turn order
    if (queue.length > 0) queues.set(next, queue);
    running += 1;
    runningBy.set(next, (runningBy.get(next) || 0) + 1);
    tenantOf.set(rec.key, next);
    rec.queued = false;
    start(rec);
  }
}
/** A group's end: kept until released; the slot passes to the next queued spawn. */
function ended(rec, end, heldSlot) {
  rec.end = end;
  if (rec.spool !== undefined) { try { fs.closeSync(rec.spool); } catch {} rec.spool = undefined; }
  sendFor(rec, Object.assign({}, end));
  // a group without a task's key cannot be re-attached: once its end is told, it is forgotten
  if (rec.ephemeral && rec.conn) forget(rec);
  if (heldSlot) {
    running -= 1;
    const tenant = tenantOf.get(rec.key);
    tenantOf.delete(rec.key);
    const left = (runningBy.get(tenant) || 1) - 1;
    if (left > 0) runningBy.set(tenant, left); else runningBy.delete(tenant);
    pump();
  }
  idleCheck();
}
function start(rec) {
  const m = rec.m;
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
      ended(rec, removeAfter(m, { t: 'end', exitCode: null, signal: null, pipesAbandoned: false,
        setupError: String(error) }), true);
      return;
    }
  }
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...fds] });
  } catch (error) {
    ended(rec, { t: 'end', exitCode: null, signal: null, pipesAbandoned: false,
      spawnError: { code: error.code, message: error.message } }, true);
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
    rec.running = false;
    ended(rec, removeAfter(m, Object.assign({ t: 'end' }, end)), true);
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
  rec.pid = pid;
  rec.startedAt = Date.now();
  rec.running = true;
  if (SPOOL) {
    rec.spoolPath = path.join(SPOOL, rec.key.replace(/[^A-Za-z0-9._-]/g, '_') + '.spool');
    try { rec.spool = fs.openSync(rec.spoolPath, 'w', 0o600); } catch { rec.spoolPath = undefined; }
  }
  sendFor(rec, { t: 'pid', pid, at: rec.startedAt });
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
  [child.stdout, child.stderr].forEach((stream, s) => {
    stream.on('data', (d) => {
      spoolWrite(rec, s, d);
      const c = rec.conn;
      if (!c || rec.id === undefined) return; // spooled for the server that comes back
      sendFor(rec, { t: 'out', s, d: d.toString('latin1') });
      rec.unacked += d.length;
      if (rec.unacked > MAX_UNACKED) { stream.pause(); rec.held.push(stream); }
      else if (!c.writable) { stream.pause(); c.paused.add(stream); }
    });
    stream.on('close', onPipeClosed);
  });
  rec.terminate = () => {
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
  rec.resume = () => { rec.held.splice(0).forEach((stream) => stream.resume()); };
}
/** A spawn: a new group, or the group this key names already (a restarted server re-attaching). */
function spawnMessage(c, m) {
  const known = byKey.get(m.key);
  if (known) {
    hold(known, c, m.id);
    known.unacked = 0;
    if (known.queued) return; // still waiting for a slot: its start will be told
    if (known.pid !== undefined) sendFor(known, { t: 'pid', pid: known.pid, at: known.startedAt });
    spoolReplay(known);
    if (known.end) sendFor(known, Object.assign({}, known.end));
    else known.resume?.();
    return;
  }
  const rec = { key: m.key, id: undefined, conn: undefined, m, queued: true, unacked: 0, held: [],
    ephemeral: m.ephemeral === true };
  byKey.set(m.key, rec);
  hold(rec, c, m.id);
  const tenant = typeof m.tenant === 'string' ? m.tenant : '';
  const queue = queues.get(tenant);
  if (queue) queue.push(rec); else queues.set(tenant, [rec]);
  pump();
}
function term(c, m) {
  const rec = c.byId.get(m.id);
  if (!rec) return;
  if (rec.queued) {
    for (const [tenant, queue] of queues) {
      const at = queue.indexOf(rec);
      if (at < 0) continue;
      queue.splice(at, 1);
      if (queue.length === 0) queues.delete(tenant);
      break;
    }
    rec.queued = false;
    ended(rec, removeAfter(rec.m, { t: 'end', exitCode: null, signal: null, pipesAbandoned: false,
      notStarted: true }), false);
    pump(); // one tenant fewer with work can raise the others' share
  } else rec.terminate?.();
}
// A task's network namespace: a holder process (unshare --net, nft policy inside) and the
// slirp4netns that connects it; both end when their pipe from here closes (or on 'unpod').
const pods = new Map();
function podStart(c, m) {
  const known = pods.get(m.key);
  if (known) {
    if (known.pid !== undefined) send(c, { t: 'podready', id: m.id, pid: known.pid });
    else known.waiting.push([c, m.id]);
    return;
  }
  const pod = { holder: undefined, slirp: undefined, stopped: false, pid: undefined, waiting: [[c, m.id]] };
  pods.set(m.key, pod);
  let answered = false;
  const answer = (pid, error) => {
    if (answered) return;
    answered = true;
    if (error) podStop(m.key);
    else pod.pid = pid;
    for (const [to, id] of pod.waiting.splice(0)) send(to, { t: 'podready', id, pid, error });
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
function podStop(key, quiet) {
  const pod = pods.get(key);
  if (!pod) return;
  pods.delete(key);
  pod.stopped = true;
  for (const child of [pod.slirp, pod.holder]) {
    if (!child) continue;
    child.removeAllListeners('exit');
    try { child.kill('SIGKILL'); } catch {}
  }
  if (!quiet) idleCheck();
}
/** Steps still running or waiting for a slot (a task's network namespace alone does not count). */
function busy() {
  if (queues.size > 0) return true;
  for (const rec of byKey.values()) if (rec.running || rec.queued) return true;
  return false;
}
/**
 * No server and no step running: leave now when nothing is left to claim, else ORPHAN_MS later
 * (a server that died mid-work may come back for its ends, spools and network namespaces).
 */
function idleCheck() {
  if (conns.size > 0 || busy()) return;
  if (byKey.size === 0 && pods.size === 0) shutdown();
  else if (!orphanTimer) orphanTimer = setTimeout(() => { if (conns.size === 0 && !busy()) shutdown(); }, ORPHAN_MS);
}
function shutdown() {
  for (const key of [...pods.keys()]) podStop(key, true);
  try { fs.unlinkSync(SOCKET); } catch {}
  try { fs.unlinkSync(LOCK); } catch {}
  for (const rec of byKey.values()) forget(rec);
  // a temporary state directory (a spawner given none) goes with its supervisor
  const own = process.env.SLIPWAY_SUPERVISOR_REMOVE_DIR;
  if (own) {
    try { fs.rmSync(own, { recursive: true, force: true }); } catch {}
    try { fs.rmdirSync(path.dirname(SOCKET)); } catch {}
  }
  process.exit(0);
}
function receive(c, m) {
  if (m.t === 'spawn') spawnMessage(c, m);
  else if (m.t === 'term') term(c, m);
  else if (m.t === 'ack') {
    const rec = c.byId.get(m.id);
    if (!rec) return;
    rec.unacked -= m.n;
    if (rec.unacked <= MAX_UNACKED / 2) rec.resume?.();
  }
  else if (m.t === 'pod') podStart(c, m);
  else if (m.t === 'unpod') podStop(m.key);
  else if (m.t === 'release') {
    for (const rec of [...byKey.values()]) if (rec.key.startsWith(m.prefix) && rec.end) forget(rec);
    for (const key of [...pods.keys()]) if (key.startsWith(m.prefix)) podStop(key);
    idleCheck();
  }
  else if (m.t === 'known') {
    const keys = [];
    for (const key of byKey.keys()) if (key.startsWith(m.prefix)) keys.push(key);
    send(c, { t: 'knownis', id: m.id, keys });
  }
  else if (m.t === 'rm') {
    let error;
    try { removeDir(m.dir); } catch (e) { error = String(e); }
    send(c, { t: 'rmdone', id: m.id, error });
  }
}
const server = net.createServer((socket) => {
  // several servers may share the data directory (PostgreSQL replicas on one machine): each holds
  // the groups it spawned or re-attached to
  const c = { socket, byId: new Map(), writable: true, paused: new Set() };
  conns.add(c);
  clearTimeout(orphanTimer);
  orphanTimer = undefined;
  let buffered = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk) => {
    buffered += chunk;
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line) receive(c, JSON.parse(Buffer.from(line, 'latin1').toString('utf8')));
    }
  });
  socket.on('drain', () => {
    c.writable = true;
    for (const stream of c.paused) stream.resume();
    c.paused.clear();
  });
  const gone = () => {
    if (!conns.delete(c)) return;
    // its groups run on, spooled, for the server that comes back
    for (const rec of [...c.byId.values()]) {
      if (rec.ephemeral && rec.end) forget(rec);
      else hold(rec, undefined, undefined);
    }
    for (const stream of c.paused) stream.resume();
    c.paused.clear();
    idleCheck();
  };
  socket.on('close', gone);
  socket.on('error', gone);
  send(c, { t: 'ready', pid: process.pid });
});
// one supervisor per state dir: a second one (two servers starting at once) leaves at once
const LOCK = path.join(path.dirname(SOCKET), 'supervisor.pid');
for (;;) {
  try { fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx', mode: 0o600 }); break; }
  catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const holder = Number(fs.readFileSync(LOCK, 'utf8'));
    let alive = false;
    try { process.kill(holder, 0); alive = holder !== process.pid; } catch {}
    if (alive) process.exit(3);
    try { fs.unlinkSync(LOCK); } catch {}
  }
}
try { fs.unlinkSync(SOCKET); } catch {}
if (SPOOL) {
  // spools of a supervisor that died with its groups can never be claimed
  try { fs.rmSync(SPOOL, { recursive: true, force: true }); } catch {}
  fs.mkdirSync(SPOOL, { recursive: true, mode: 0o700 });
}
server.listen(SOCKET, () => {
  try { fs.chmodSync(SOCKET, 0o600); } catch {}
  if (process.send) { process.send({ t: 'listening' }); process.disconnect(); }
});
// nobody connected within a minute of the start: leave
orphanTimer = setTimeout(() => { if (conns.size === 0 && !busy()) shutdown(); }, 60_000);
process.title = 'slipway-step-supervisor';
`;
