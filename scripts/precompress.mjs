// Writes .br and .gz next to every compressible file of a built web app, so the server sends
// pre-compressed assets (@fastify/static preCompressed) instead of compressing on each request.
// All the .gz first (a second or so), then the .br (brotli 11: most of the time). Each copy is
// written under a temporary name and renamed, so the server never sends half a file while this
// runs in the background (decision 024), and copies newer than their file are kept, so an
// interrupted run resumes. When complete, `.precompressed` records the build it was made for.
import { existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/precompress.mjs <dir>');
  process.exit(2);
}
const stampFile = path.join(dir, '.build-stamp');
const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : null;

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);
const targets = [];
function walk(d) {
  for (const name of readdirSync(d)) {
    const full = path.join(d, name);
    const s = statSync(full);
    if (s.isDirectory()) walk(full);
    else if (COMPRESSIBLE.has(path.extname(name)) && s.size >= 1024)
      targets.push({ full, mtimeMs: s.mtimeMs });
  }
}
walk(dir);

function write(target, ext, compress) {
  const out = `${target.full}${ext}`;
  if (existsSync(out) && statSync(out).mtimeMs >= target.mtimeMs) return statSync(out).size;
  const data = compress(readFileSync(target.full));
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, out);
  return data.length;
}

let before = 0;
let after = 0;
for (const t of targets) write(t, '.gz', (data) => gzipSync(data, { level: 9 }));
for (const t of targets) {
  before += statSync(t.full).size;
  after += write(t, '.br', (data) =>
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
if (stamp !== null) writeFileSync(path.join(dir, '.precompressed'), stamp);
console.log(
  `precompressed ${targets.length} files: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB brotli`,
);
