// Builds the server and the web app when their sources changed since the last build.
// Used by `npm start` and `npm test`, so a fresh clone needs no separate build command.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

function run(label, command, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`slipway: building ${label}…\n`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    process.stderr.write(`slipway: building ${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
  process.stdout.write(`slipway: built ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

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
    build: () => run('the server', npx, ['tsc', '-b', 'packages/server/tsconfig.build.json']),
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
    build: () => run('the agent', npx, ['tsc', '-b', 'packages/agent/tsconfig.build.json']),
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
    build: () => {
      // Through the workspace's own script, so the web package's Vite is used wherever npm put it.
      run(
        'the web app',
        npm,
        ['run', '--silent', 'build', '-w', '@slipway/web', '--', '--logLevel', 'warn'],
        {
          // Vitest sets NODE_ENV=test; the served app is always a production build.
          NODE_ENV: 'production',
        },
      );
      run('compressed web assets', process.execPath, ['scripts/precompress.mjs', 'packages/web/dist']);
    },
  },
};

/** Builds what is stale; `force` rebuilds regardless. */
export function buildIfStale(names = Object.keys(steps), { force = false } = {}) {
  for (const name of names) {
    const step = steps[name];
    const stamp = path.join(root, step.output, '.build-stamp');
    const want = fingerprint(step.inputs);
    const have = existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
    if (!force && have === want) continue;
    step.build();
    writeFileSync(stamp, want);
  }
}
