import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildahRequired,
  registryAvailable,
  REGISTRY_BIN,
  startOciRegistry,
  type OciRegistry,
} from '../../../../test-support/oci-registry.js';
import { gzipTar, imageConfig, pushImage, type TestImage } from '../../../../test-support/oci-test-images.js';
import { startReplayingRegistry } from '../../../../test-support/registry-auth-proxy.js';
import { ImagePullError } from './errors.js';
import { ImageStore } from './image-store.js';
import { MANIFEST_ACCEPT } from './manifest.js';

const runnable = registryAvailable || buildahRequired;
if (!runnable) console.log(`image digest tests skipped: no docker-registry at ${REGISTRY_BIN}`);

/**
 * A real registry cannot be made to serve wrong bytes, so these tests replay what it answered
 * (status, headers, body) from a loopback server, with one body tampered.
 */
describe.skipIf(!runnable)('ImageStore digest checks', () => {
  let registry: OciRegistry;
  let image: TestImage;
  let dir: string;
  const repo = 'test/tamper';

  beforeAll(async () => {
    registry = await startOciRegistry();
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-images-digest-'));
    const bulk = Buffer.alloc(256 * 1024);
    for (let i = 0; i < bulk.length; i++) bulk[i] = (i * 7919) % 251;
    image = await pushImage(registry.url, repo, 'v1', {
      layers: [
        gzipTar([{ path: 'bin/tool', content: bulk, mode: 0o755 }]),
        gzipTar([{ path: 'etc/hello', content: 'hi' }]),
      ],
      config: imageConfig('amd64', { Cmd: ['/bin/tool'], Env: ['A=amd64'] }),
    });
  });
  afterAll(async () => {
    await registry?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function pullTampered(target: string, tamper: (body: Buffer) => Buffer): Promise<ImagePullError> {
    const blobs = [image.configDigest, ...image.layerDigests].map((d) => ({
      path: `/v2/${repo}/blobs/${d}`,
    }));
    const replay = await startReplayingRegistry(
      registry.url,
      [{ path: `/v2/${repo}/manifests/v1`, accept: MANIFEST_ACCEPT }, ...blobs],
      (p, body) => (p.endsWith(target) ? tamper(Buffer.from(body)) : body),
    );
    const cacheDir = mkdtempSync(path.join(dir, 'cache-'));
    try {
      const ref = `${replay.host}/${repo}:v1`;
      const error = await new ImageStore({ cacheDir }).pull(ref).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ImagePullError);
      expect((error as ImagePullError).message.startsWith(`image "${ref}" could not be pulled: `)).toBe(true);
      const tmp = path.join(cacheDir, 'tmp');
      expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
      expect(existsSync(path.join(cacheDir, 'rootfs', image.digest.slice(7)))).toBe(false);
      return error as ImagePullError;
    } finally {
      await replay.stop();
    }
  }

  const flip = (offset: (body: Buffer) => number) => (body: Buffer) => {
    const at = offset(body);
    body[at] = body[at]! ^ 0x01;
    return body;
  };

  it('the replay serves the real registry answers: an untampered pull works', async () => {
    const replay = await startReplayingRegistry(
      registry.url,
      [
        `/v2/${repo}/manifests/v1`,
        ...[image.configDigest, ...image.layerDigests].map((d) => `/v2/${repo}/blobs/${d}`),
      ].map((p) => ({ path: p, accept: MANIFEST_ACCEPT })),
      (_p, body) => body,
    );
    try {
      const pulled = await new ImageStore({ cacheDir: mkdtempSync(path.join(dir, 'cache-')) }).pull(
        `${replay.host}/${repo}:v1`,
      );
      expect(pulled.digest).toBe(image.digest);
      expect(pulled.config.env).toEqual(['A=amd64']);
    } finally {
      await replay.stop();
    }
  });

  it('refuses a layer whose bytes do not match its digest, even when its gzip breaks first', async () => {
    const error = await pullTampered(
      image.layerDigests[0]!,
      flip((b) => Math.floor(b.length / 2)),
    );
    expect(error.code).toBe('DIGEST_MISMATCH');
    expect(error.message).toContain(
      `layer ${image.layerDigests[0]} does not match its digest: expected ${image.layerDigests[0]}`,
    );
  });

  it('refuses a config blob and a manifest that do not match their digests', async () => {
    const config = await pullTampered(image.configDigest, (b) =>
      Buffer.from(b.toString().replace('amd64', 'arm64')),
    );
    expect(config.message).toContain(
      `the image config does not match its digest: expected ${image.configDigest}`,
    );
    const manifest = await pullTampered('/manifests/v1', (b) =>
      Buffer.from(b.toString().replace('"size":', '"size": ')),
    );
    expect(manifest.message).toContain(
      `the manifest does not match the registry's digest: expected ${image.digest}`,
    );
    const longer = await pullTampered(image.layerDigests[1]!, (b) =>
      Buffer.concat([b, Buffer.from('trailing')]),
    );
    expect(longer.message).toContain(`is larger than its descriptor's`);
  });
});
