import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A real OCI registry for tests: Debian's `docker-registry` (the CNCF distribution registry)
 * with filesystem storage in a temporary directory, on a free loopback port, plain HTTP. The
 * buildah tests skip without it (or without buildah) unless CI=true or SLIPWAY_REQUIRE_BUILDAH=1.
 */
export const REGISTRY_BIN = process.env.DOCKER_REGISTRY_PATH ?? '/usr/bin/docker-registry';
export const registryAvailable = existsSync(REGISTRY_BIN);
export const buildahAvailable = spawnSync('buildah', ['--version'], { stdio: 'ignore' }).status === 0;
export const buildahRequired = process.env.CI === 'true' || process.env.SLIPWAY_REQUIRE_BUILDAH === '1';

/** The media types a client accepts for an image manifest (OCI and Docker v2). */
export const MANIFEST_ACCEPT = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.oci.image.index.v1+json',
].join(', ');

export interface OciManifest {
  schemaVersion: number;
  mediaType?: string;
  config: { mediaType: string; digest: string; size: number };
  layers: { mediaType: string; digest: string; size: number }[];
}

export interface OciRegistry {
  /** `127.0.0.1:<port>`: the host part of image references */
  host: string;
  url: string;
  /** GET /v2/<name>/manifests/<tag>: the manifest, its media type and its digest */
  manifest(
    name: string,
    tag: string,
  ): Promise<{ status: number; manifest?: OciManifest; digest?: string; mediaType?: string }>;
  blob(name: string, digest: string): Promise<Buffer>;
  stop(): Promise<void>;
}

export async function startOciRegistry(): Promise<OciRegistry> {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-registry-'));
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
  secret: slipway-test-registry
`,
  );
  let output = '';
  const child: ChildProcess = spawn(REGISTRY_BIN, ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
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

  return {
    host,
    url,
    async manifest(name, tag) {
      const res = await fetch(`${url}/v2/${name}/manifests/${tag}`, { headers: { accept: MANIFEST_ACCEPT } });
      if (res.status !== 200) return { status: res.status };
      return {
        status: res.status,
        manifest: (await res.json()) as OciManifest,
        digest: res.headers.get('docker-content-digest') ?? undefined,
        mediaType: res.headers.get('content-type') ?? undefined,
      };
    },
    async blob(name, digest) {
      const res = await fetch(`${url}/v2/${name}/blobs/${digest}`);
      if (res.status !== 200) throw new Error(`blob ${digest}: HTTP ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    stop,
  };
}

/** The regular files of a (gunzipped) tar archive: name → content. */
export function tarFiles(tar: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = text(345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(0, 100);
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1);
    if (type === '0' || type === '') {
      files.set(name.replace(/^\.?\//, ''), tar.subarray(offset + 512, offset + 512 + size).toString('utf8'));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
