// Step image overhead: what a cached OCI image costs a sandboxed step over the host's system as
// its root (SLIPWAY_STEP_IMAGES=pull vs host). A real registry (Debian's docker-registry, on a
// free loopback port) serves a small busybox image built and pushed here; two benchmark servers
// (bench/pipeline-server.mjs), one per mode, run the same pipeline: TASKS sequential tasks of one
// step each whose script is `true`, in image 127.0.0.1:<port>/bench/busybox:1 (the host server
// ignores the image). Single-step tasks, not one task of many steps: a task pulls each image once
// per attempt, so it is the task's first step that pays the tag's re-check (one HEAD) and the
// look-up in the cache.
//
// Each server runs the pipeline once to warm up (the pull server pulls the image then), then the
// rounds alternate the two servers (pull first in even rounds, host first in odd ones) so that
// the machine's drift falls on both. Figures, as medians over every task of every round:
//   - a step, spawn → exit, from the step's recorded startedAt/finishedAt (after the image is
//     found: the sandbox's start with the image's root instead of the host's, and the process
//     limit set by the image-side busybox),
//   - a task, start → end, from the task run's recorded times (adds the image look-up and HEAD),
//   - the run's wall time divided by its tasks (adds the engine's hand-over between tasks),
// and, for scale, a cached pull through the image store alone (in this process, its own cache).
// Target: a cached image adds at most 20 ms to a step, judged on the task's time (the whole of
// what the image adds to a one-step task).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort, median, percentile, report, runFinished, startPipelineServer } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const TASKS = Number(process.env.BENCH_TASKS ?? 20);
const REGISTRY_BIN = process.env.DOCKER_REGISTRY_PATH ?? '/usr/bin/docker-registry';
const BUSYBOX = '/usr/bin/busybox';
for (const bin of [REGISTRY_BIN, BUSYBOX])
  if (!existsSync(bin)) throw new Error(`${bin} is needed (apt-get install docker-registry busybox-static)`);

// ---- a real registry, configured as packages/server/src/test-support/oci-registry.ts does ----

async function startRegistry() {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}`;
  const config = path.join(dir, 'config.yml');
  writeFileSync(
    config,
    `version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: ${path.join(dir, 'data')}
  delete:
    enabled: true
http:
  addr: ${host}
  secret: slipway-bench-registry
`,
  );
  let output = '';
  const child = spawn(REGISTRY_BIN, ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (b) => (output += b));
  child.stderr.on('data', (b) => (output += b));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`docker-registry exited with ${child.exitCode}: ${output}`);
    }
    const ok = await fetch(`${url}/v2/`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`docker-registry did not answer on ${url}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { host, url, stop };
}

// ---- a busybox image: one gzip tar layer, a config, an OCI manifest (oci-test-images.ts) ----

const TYPEFLAG = { file: '0', symlink: '2', directory: '5' };

function tarHeader(name, { type, mode, size, linkpath = '' }) {
  const block = Buffer.alloc(512);
  const put = (value, offset, length) => block.write(value, offset, length, 'utf8');
  const octal = (value, offset, length) =>
    put(value.toString(8).padStart(length - 1, '0') + '\0', offset, length);
  put(name, 0, 100);
  octal(mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(1_700_000_000, 136, 12);
  block.fill(0x20, 148, 156);
  put(TYPEFLAG[type], 156, 1);
  put(linkpath, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return block;
}

function tar(members) {
  const blocks = [];
  for (const m of members) {
    const content = m.type === 'file' ? m.content : Buffer.alloc(0);
    blocks.push(tarHeader(m.type === 'directory' ? `${m.path}/` : m.path, { ...m, size: content.length }));
    blocks.push(content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

const sha256 = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function pushBlob(registryUrl, repository, bytes) {
  const digest = sha256(bytes);
  const start = await fetch(`${registryUrl}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
  if (start.status !== 202) throw new Error(`blob upload start: HTTP ${start.status} ${await start.text()}`);
  const location = new URL(start.headers.get('location'), registryUrl);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    body: bytes,
  });
  if (put.status !== 201) throw new Error(`blob upload: HTTP ${put.status} ${await put.text()}`);
  return digest;
}

async function pushBusybox(registryUrl, repository, tag) {
  const layer = gzipSync(
    tar([
      { path: 'bin', type: 'directory', mode: 0o755 },
      { path: 'bin/busybox', type: 'file', mode: 0o755, content: readFileSync(BUSYBOX) },
      { path: 'bin/sh', type: 'symlink', mode: 0o777, linkpath: 'busybox' },
      { path: 'bin/true', type: 'symlink', mode: 0o777, linkpath: 'busybox' },
    ]),
  );
  const architecture = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' }[
    process.arch
  ];
  const config = Buffer.from(
    JSON.stringify({
      architecture,
      os: 'linux',
      config: { Entrypoint: ['/bin/sh', '-c'], Cmd: ['true'], Env: ['PATH=/bin'] },
      rootfs: { type: 'layers', diff_ids: [] },
    }),
  );
  const layerDigest = await pushBlob(registryUrl, repository, layer);
  const configDigest = await pushBlob(registryUrl, repository, config);
  const manifest = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: {
      mediaType: 'application/vnd.oci.image.config.v1+json',
      digest: configDigest,
      size: config.length,
    },
    layers: [
      { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: layerDigest, size: layer.length },
    ],
  };
  const res = await fetch(`${registryUrl}/v2/${repository}/manifests/${tag}`, {
    method: 'PUT',
    headers: { 'content-type': manifest.mediaType },
    body: JSON.stringify(manifest),
  });
  if (res.status !== 201) throw new Error(`manifest push: HTTP ${res.status} ${await res.text()}`);
  return { layerBytes: layer.length };
}

// ---- the benchmark ----

const registry = await startRegistry();
const servers = [];
const storeDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-store-'));
try {
  const pushed = await pushBusybox(registry.url, 'bench/busybox', '1');
  const image = `${registry.host}/bench/busybox:1`;

  const tasks = Array.from(
    { length: TASKS },
    (_, i) =>
      `    - name: t-${i}\n${i > 0 ? `      runAfter: [t-${i - 1}]\n` : ''}      taskSpec: { steps: [{ name: s, image: '${image}', script: 'true' }] }`,
  );
  const definition = `apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: { name: image-overhead }\nspec:\n  tasks:\n${tasks.join('\n')}\n`;

  const modes = ['pull', 'host'];
  const by = {};
  for (const mode of modes) {
    const server = await startPipelineServer({ SLIPWAY_STEP_IMAGES: mode });
    servers.push(server);
    const pipeline = await server.api('POST', 'pipelines', { name: 'image-overhead', definition });
    by[mode] = { server, pipeline, stepMs: [], taskMs: [], perTaskMs: [], runMs: [] };
  }

  async function runOnce(mode) {
    const { server, pipeline } = by[mode];
    const created = await server.api('POST', 'pipelineruns', { pipelineId: pipeline.id });
    const run = await runFinished(server, created.id);
    if (run.status !== 'succeeded') {
      const logs = await fetch(`${server.url}/api/pipelineruns/${run.id}/logs`, {
        headers: server.headers,
      }).then((r) => r.text());
      throw new Error(`the ${mode} run ended ${run.status}: ${run.reason}\n${logs.slice(-2000)}`);
    }
    if (run.taskRuns.length !== TASKS) throw new Error(`${run.taskRuns.length} task runs`);
    return run;
  }

  // warm-up: the pull server pulls the image here; both logs must say where the step ran
  const warm = {};
  for (const mode of modes) {
    const started = performance.now();
    const run = await runOnce(mode);
    warm[mode] = performance.now() - started;
    const { server } = by[mode];
    const logs = await fetch(`${server.url}/api/pipelineruns/${run.id}/logs`, {
      headers: server.headers,
    }).then((r) => r.text());
    const expected = mode === 'pull' ? `(image ${image}, in a sandbox)` : "in a sandbox on the host's system";
    if (!logs.includes(expected))
      throw new Error(`the ${mode} server's steps did not run as expected: ${logs.slice(0, 1000)}`);
  }

  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
      const run = await runOnce(mode);
      const t = (iso) => Date.parse(iso);
      const into = by[mode];
      const runMs = t(run.finishedAt) - t(run.startedAt);
      into.runMs.push(runMs);
      into.perTaskMs.push(runMs / TASKS);
      for (const task of run.taskRuns) {
        into.taskMs.push(t(task.finishedAt) - t(task.startedAt));
        into.stepMs.push(t(task.steps[0].finishedAt) - t(task.steps[0].startedAt));
      }
    }
  }

  // for scale: a cached pull through the image store alone (the HEAD and the cache's index)
  const { ImageStore } = await import('../packages/server/dist/features/pipelines/executor/images/index.js');
  chmodSync(storeDir, 0o711);
  const store = new ImageStore({ cacheDir: path.join(storeDir, 'images') });
  await store.pull(image);
  const pullMs = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await store.pull(image);
    pullMs.push(performance.now() - started);
  }

  const p = (xs, q) => percentile(xs, q).toFixed(0);
  const fig = (mode, key) => `${p(by[mode][key], 50)} / ${p(by[mode][key], 90)}`;
  const diff = (key) => median(by.pull[key]) - median(by.host[key]);
  const added = diff('taskMs');
  report(
    `step image overhead: a cached image vs the host's system (${TASKS} sequential one-step tasks, \`true\`)`,
    {
      rounds: `${ROUNDS} per mode (${ROUNDS * TASKS} tasks each), after one warm-up run each`,
      image: `${image} (busybox, one ${(pushed.layerBytes / 1024).toFixed(0)} KiB layer)`,
      'warm-up run, incl. the first pull (ms, pull / host)': `${warm.pull.toFixed(0)} / ${warm.host.toFixed(0)}`,
      'step spawn → exit, pull (ms, p50 / p90)': fig('pull', 'stepMs'),
      'step spawn → exit, host (ms, p50 / p90)': fig('host', 'stepMs'),
      'task start → end, pull (ms, p50 / p90)': fig('pull', 'taskMs'),
      'task start → end, host (ms, p50 / p90)': fig('host', 'taskMs'),
      'run wall / tasks, pull (ms, median)': median(by.pull.perTaskMs).toFixed(0),
      'run wall / tasks, host (ms, median)': median(by.host.perTaskMs).toFixed(0),
      'runs, pull (ms)': by.pull.runMs.join(', '),
      'runs, host (ms)': by.host.runMs.join(', '),
      'added by the image, step p50 (ms)': diff('stepMs').toFixed(0),
      'added by the image, task p50 (ms)': added.toFixed(0),
      'added by the image, run wall per task (ms)': diff('perTaskMs').toFixed(0),
      'a cached pull in the image store alone (ms, p50 / p90)': `${percentile(pullMs, 50).toFixed(1)} / ${percentile(pullMs, 90).toFixed(1)}`,
      target: '<= 20 ms per step (task p50, pull − host)',
      verdict: added <= 20 ? 'met' : 'NOT met',
    },
  );
} finally {
  for (const server of servers) await server.stop();
  await registry.stop();
  rmSync(storeDir, { recursive: true, force: true });
}
