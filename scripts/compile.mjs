// Emits a TypeScript project's JavaScript and source maps with esbuild, file by file, into the
// same `dist/` layout `tsc` gives (rootDir → outDir), in well under a second. It does not check
// types and writes no declarations: `npm run typecheck` (tsc) does that (decision 024).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** tsconfig `exclude` globs (`src/**\/*.test.ts`, `src/test-support/**`) as a RegExp. */
function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function sources(dir, projectDir, exclude, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(projectDir, full).split(path.sep).join('/');
    if (exclude.some((re) => re.test(rel))) continue;
    if (entry.isDirectory()) sources(full, projectDir, exclude, out);
    else if (/\.[cm]?ts$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) out.push(full);
  }
}

/** Compiles the project of `tsconfigFile` (a JSON tsconfig with include, exclude, rootDir, outDir). */
export function compile(tsconfigFile) {
  const config = JSON.parse(readFileSync(tsconfigFile, 'utf8'));
  const projectDir = path.dirname(tsconfigFile);
  const { rootDir = '.', outDir } = config.compilerOptions;
  const exclude = (config.exclude ?? []).map(globToRegExp);
  const entryPoints = [];
  for (const include of config.include ?? ['.']) {
    const full = path.join(projectDir, include);
    if (existsSync(full) && statSync(full).isDirectory()) sources(full, projectDir, exclude, entryPoints);
    else if (existsSync(full)) entryPoints.push(full);
  }
  const { buildSync } = require('esbuild');
  buildSync({
    entryPoints,
    outdir: path.join(projectDir, outDir),
    outbase: path.join(projectDir, rootDir),
    tsconfig: tsconfigFile,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'es2023', // tsconfig.base.json's target
    sourcemap: true, // like tsc's `sourceMap`: main.js.map next to main.js, no sources inlined
    sourcesContent: false,
    logLevel: 'warning',
  });
  return entryPoints.length;
}
