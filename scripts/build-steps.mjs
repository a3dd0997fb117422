// Builds the server, the agent and the web app when their sources changed since the last build.
// Used by `npm start` and `npm test`, so a fresh clone needs no separate build command.
// The server and the agent are emitted by esbuild, without type checking (decision 024).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from './compile.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));

function walk(dir, out) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/** A fingerprint of the inputs: every file's path, size and modification time. */
function fingerprint(inputs) {
  const files = [];
  for (const input of inputs) {
    const full = path.join(root, input);
    if (existsSync(full) && statSync(full).isDirectory()) walk(full, files);
    else if (existsSync(full)) files.push(full);
  }
  const hash = createHash('sha256');
  for (const f of files.sort()) {
    const s = statSync(f);
    hash.update(`${path.relative(root, f)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function timed(label, work) {
  const started = Date.now();
  process.stdout.write(`slipway: building ${label}…\n`);
  work();
  process.stdout.write(`slipway: built ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

function run(label, command, args, env = {}, cwd = root) {
  timed(label, () => {
    const r = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
    if (r.status !== 0) {
      process.stderr.write(`slipway: building ${label} failed (exit ${r.status ?? r.signal})\n`);
      process.exit(r.status ?? 1);
    }
  });
}

/** JavaScript and source maps of TypeScript projects, into their dist/ (scripts/compile.mjs). */
function emit(label, tsconfigs) {
  timed(label, () => {
    try {
      for (const tsconfig of tsconfigs) compile(path.join(root, tsconfig));
    } catch (err) {
      // esbuild has already printed the errors, with file and line
      process.stderr.write(`slipway: building ${label} failed: ${err.message.split('\n')[0]}\n`);
      process.exit(1);
    }
  });
}

/** `vite` as the web workspace resolves it (its `build` script's). */
function viteBin() {
  const req = createRequire(path.join(root, 'packages/web/package.json'));
  const pkg = req.resolve('vite/package.json');
  return path.join(path.dirname(pkg), JSON.parse(readFileSync(pkg, 'utf8')).bin.vite);
}

const steps = {
  server: {
    inputs: [
      'packages/contracts/src',
      'packages/contracts/tsconfig.json',
      'packages/server/src',
      'packages/server/tsconfig.build.json',
      'tsconfig.base.json',
    ],
    output: 'packages/server/dist',
    build: () =>
      emit('the server', ['packages/contracts/tsconfig.json', 'packages/server/tsconfig.build.json']),
  },
  agent: {
    inputs: [
      'packages/contracts/src',
      'packages/contracts/tsconfig.json',
      'packages/agent/src',
      'packages/agent/tsconfig.build.json',
      'tsconfig.base.json',
    ],
    output: 'packages/agent/dist',
    build: () =>
      emit('the agent', ['packages/contracts/tsconfig.json', 'packages/agent/tsconfig.build.json']),
  },
  web: {
    inputs: [
      'packages/contracts/src',
      'packages/web/src',
      'packages/web/index.html',
      'packages/web/public',
      'packages/web/vite.config.ts',
      'packages/web/package.json',
      'packages/contracts/package.json',
    ],
    output: 'packages/web/dist',
    build: () =>
      // The web package's own Vite, wherever npm put it, without starting npm (half a second).
      run(
        'the web app',
        process.execPath,
        [viteBin(), 'build', '--logLevel', 'warn'],
        {
          // Vitest sets NODE_ENV=test; the served app is always a production build.
          NODE_ENV: 'production',
        },
        path.join(root, 'packages/web'),
      ),
  },
};

/**
 * The .br and .gz copies of the built web app (scripts/precompress.mjs), unless they are complete
 * for its current build: at once, or in the background at the lowest CPU priority, so that
 * `npm start` does not wait for them (until a copy exists, the server compresses on the fly).
 */
export function precompressWebApp({ background = false } = {}) {
  const dir = path.join(root, 'packages/web/dist');
  const stamp = path.join(dir, '.build-stamp');
  const marker = path.join(dir, '.precompressed'); // written by precompress.mjs when complete
  if (!existsSync(stamp)) return;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === readFileSync(stamp, 'utf8')) return;
  const args = [path.join(root, 'scripts/precompress.mjs'), dir];
  if (!background) return run('compressed web assets', process.execPath, args);
  process.stdout.write('slipway: compressing the web assets in the background\n');
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'ignore' });
  try {
    setPriority(child.pid, 19);
  } catch {
    // not allowed here: it runs at the server's priority
  }
  child.unref();
}

/**
 * Builds what is stale; `force` rebuilds regardless. With the web app, its compressed copies are
 * made too, before returning unless `precompress` is 'background', or not at all with 'skip' (the
 * tests: nothing they check needs them, and they cost 10-20 s of a 2-core machine).
 */
export function buildIfStale(names = Object.keys(steps), { force = false, precompress = 'now' } = {}) {
  for (const name of names) {
    const step = steps[name];
    const stamp = path.join(root, step.output, '.build-stamp');
    const want = fingerprint(step.inputs);
    const have = existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
    if (!force && have === want) continue;
    step.build();
    writeFileSync(stamp, want);
  }
  if (names.includes('web') && precompress !== 'skip') {
    precompressWebApp({ background: precompress === 'background' });
  }
}
