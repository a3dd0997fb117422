import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../test-support/free-port.js';
import {
  buildahRequired,
  registryAvailable,
  REGISTRY_BIN,
  startOciRegistry,
  type OciRegistry,
} from '../../../../test-support/oci-registry.js';
import { gzipTar, imageConfig, pushImage, pushIndex } from '../../../../test-support/oci-test-images.js';
import { ImagePullError } from './errors.js';
import { ImageStore } from './image-store.js';

const BUSYBOX = '/usr/bin/busybox';
const busyboxAvailable = existsSync(BUSYBOX);
const runnable = (busyboxAvailable && registryAvailable) || buildahRequired;
if (!runnable) {
  console.log(
    `image store tests skipped: ${busyboxAvailable ? '' : `no ${BUSYBOX} (Debian's busybox-static); `}${registryAvailable ? '' : `no docker-registry at ${REGISTRY_BIN}`}`,
  );
}

const AMD64 = { os: 'linux', architecture: 'amd64' };
const ARM64 = { os: 'linux', architecture: 'arm64', variant: 'v8' };

/** Two busybox layers (the second with whiteouts and an opaque dir), as amd64 and arm64 images. */
async function pushTestImages(registry: OciRegistry) {
  const busybox = readFileSync(BUSYBOX);
  const base = gzipTar([
    { path: 'bin', type: 'directory' },
    { path: 'bin/busybox', content: busybox, mode: 0o755 },
    { path: 'bin/sh', type: 'symlink', linkpath: 'busybox' },
    { path: 'bin/ls', type: 'symlink', linkpath: '/bin/busybox' },
    { path: 'bin/suid', content: 'setuid', mode: 0o4755 },
    { path: 'etc/old', content: 'lower layer' },
    { path: 'data/lower', content: 'lower' },
    { path: 'data/sub/deep', content: 'lower' },
  ]);
  const top = (arch: string) =>
    gzipTar([
      { path: 'etc/.wh.old' },
      { path: 'data/.wh..wh..opq' },
      { path: 'data/upper', content: 'upper' },
      { path: 'arch', content: arch },
    ]);
  const config = (arch: string) =>
    imageConfig(arch, {
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [`echo ${arch}`],
      Env: ['PATH=/bin', `ARCH=${arch}`],
      WorkingDir: '/data',
      User: '1000:1000',
    });
  const repo = 'test/busybox';
  const amd64 = await pushImage(registry.url, repo, 'amd64', {
    layers: [base, top('amd64')],
    config: config('amd64'),
  });
  const arm64 = await pushImage(registry.url, repo, 'arm64', {
    layers: [base, top('arm64')],
    config: config('arm64'),
  });
  const docker = await pushImage(registry.url, repo, 'docker', {
    layers: [base],
    config: imageConfig('amd64', { Cmd: ['sh'] }),
    format: 'docker',
  });
  const index = await pushIndex(registry.url, repo, 'multi', [
    { image: amd64, platform: AMD64 },
    { image: arm64, platform: ARM64 },
  ]);
  const hostile = await pushImage(registry.url, 'test/hostile', 'v1', {
    layers: [
      gzipTar([
        { path: 'ok', content: 'fine' },
        { path: '../evil', content: 'x' },
      ]),
    ],
    config: imageConfig('amd64', { Cmd: ['sh'] }),
  });
  return { busybox, amd64, arm64, docker, index, hostile };
}

function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    },
  };
}

describe.skipIf(!runnable)('ImageStore against a real registry', () => {
  let registry: OciRegistry;
  let dir: string;
  let images: Awaited<ReturnType<typeof pushTestImages>>;
  let n = 0;
  const cacheDir = () => path.join(dir, `cache-${++n}`);
  const name = (tag: string) => `${registry.host}/test/busybox${tag}`;

  beforeAll(async () => {
    registry = await startOciRegistry();
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-images-'));
    images = await pushTestImages(registry);
  });
  afterAll(async () => {
    await registry?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('pulls a multi-platform tag: the platform picked, layers applied with whiteouts, the config read', async () => {
    const store = new ImageStore({ cacheDir: cacheDir(), platform: AMD64 });
    const image = await store.pull(name(':multi'));
    expect(image.digest).toBe(images.amd64.digest);
    expect(image.indexDigest).toBe(images.index.digest);
    expect(image.reference).toBe(name(':multi'));
    expect(image.platform).toBe('linux/amd64');
    expect(image.config).toEqual({
      entrypoint: ['/bin/sh', '-c'],
      cmd: ['echo amd64'],
      env: ['PATH=/bin', 'ARCH=amd64'],
      workingDir: '/data',
      user: '1000:1000',
    });
    const root = image.rootfs;
    expect(root).toBe(path.join(store['cache'].dir, 'rootfs', images.amd64.digest.slice(7)));
    expect(readFileSync(path.join(root, 'bin/busybox')).equals(images.busybox)).toBe(true);
    expect(readlinkSync(path.join(root, 'bin/sh'))).toBe('busybox');
    expect(readFileSync(path.join(root, 'arch'), 'utf8')).toBe('amd64');
    expect(existsSync(path.join(root, 'etc/old'))).toBe(false);
    expect(readdirSync(path.join(root, 'data'))).toEqual(['upper']);
    expect(statSync(path.join(root, 'bin/suid')).mode & 0o7777).toBe(0o755);
    const run = spawnSync(path.join(root, 'bin/sh'), ['-c', 'echo from busybox'], { encoding: 'utf8' });
    expect(run.stdout).toBe('from busybox\n');
    expect(readdirSync(path.join(store['cache'].dir, 'tmp'))).toEqual([]);
  });

  it('picks arm64 from the index for an arm64 store, and pulls Docker v2 schema 2 images', async () => {
    const arm = await new ImageStore({ cacheDir: cacheDir(), platform: ARM64 }).pull(name(':multi'));
    expect(arm.digest).toBe(images.arm64.digest);
    expect(readFileSync(path.join(arm.rootfs, 'arch'), 'utf8')).toBe('arm64');
    expect(arm.config.cmd).toEqual(['echo arm64']);
    const docker = await new ImageStore({ cacheDir: cacheDir() }).pull(name(':docker'));
    expect(docker.digest).toBe(images.docker.digest);
    expect(docker.config).toEqual({ entrypoint: [], cmd: ['sh'], env: [], workingDir: '', user: '' });
    expect(readdirSync(path.join(docker.rootfs, 'data')).sort()).toEqual(['lower', 'sub']);
    await expect(
      new ImageStore({ cacheDir: cacheDir(), platform: { os: 'linux', architecture: 's390x' } }).pull(
        name(':multi'),
      ),
    ).rejects.toThrow(
      `image "${name(':multi')}" could not be pulled: the image has no linux/s390x variant (it has linux/amd64, linux/arm64/v8)`,
    );
  });

  it('serves the cache: by digest without the network, a tag re-checked with one HEAD, offline from the last pull', async () => {
    const cache = cacheDir();
    const counted = countingFetch();
    const store = new ImageStore({ cacheDir: cache, platform: AMD64, fetch: counted.fetch });
    const first = await store.pull(name(':multi'));
    expect(first.fromCache).toBe(false);
    expect(counted.calls.filter((c) => c.includes('/blobs/'))).toHaveLength(3); // config + two layers

    counted.calls.length = 0;
    const byDigest = await store.pull(name(`@${images.amd64.digest}`));
    const byIndexDigest = await store.pull(name(`@${images.index.digest}`));
    expect(counted.calls).toEqual([]);
    expect(byDigest.rootfs).toBe(first.rootfs);
    expect(byIndexDigest).toMatchObject({
      rootfs: first.rootfs,
      indexDigest: images.index.digest,
      fromCache: true,
    });

    const again = await store.pull(name(':multi'));
    expect(counted.calls).toEqual([`HEAD ${registry.url}/v2/test/busybox/manifests/multi`]);
    expect(again).toMatchObject({ rootfs: first.rootfs, digest: first.digest, fromCache: false });

    // another process with the same cache, its registry gone: the tag's last image serves
    const deadPort = await freePort();
    const offline = new ImageStore({
      cacheDir: cache,
      platform: AMD64,
      fetch: (input, init) => fetch(String(input).replace(registry.host, `127.0.0.1:${deadPort}`), init),
    });
    expect(await offline.pull(name(':multi'))).toMatchObject({ rootfs: first.rootfs, fromCache: true });
    await expect(offline.pull(name(':amd64'))).rejects.toThrow(
      new RegExp(
        `image "${name(':amd64')}" could not be pulled: registry ${registry.host} could not be reached: ECONNREFUSED`,
      ),
    );
  });

  it('pulls by digest into an empty cache, sharing one download between concurrent pulls and stores', async () => {
    const cache = cacheDir();
    const counted = countingFetch();
    const store = new ImageStore({ cacheDir: cache, fetch: counted.fetch });
    const other = new ImageStore({ cacheDir: cache });
    const ref = name(`@${images.amd64.digest}`);
    const [a, b, c] = await Promise.all([store.pull(ref), store.pull(ref), other.pull(ref)]);
    expect(a.digest).toBe(images.amd64.digest);
    expect(b.rootfs).toBe(a.rootfs);
    expect(c.rootfs).toBe(a.rootfs);
    expect(
      counted.calls.filter((call) => call.startsWith('GET') && call.includes('/manifests/')),
    ).toHaveLength(1);
    expect(readdirSync(path.join(cache, 'tmp'))).toEqual([]);
    expect(lstatSync(path.join(a.rootfs, 'bin/ls')).isSymbolicLink()).toBe(true);
  });

  it('a cancelled waiter does not cancel the pull another waiter shares', async () => {
    const store = new ImageStore({ cacheDir: cacheDir(), platform: AMD64 });
    const controller = new AbortController();
    const first = store.pull(name(':amd64'), undefined, controller.signal);
    const second = store.pull(name(':amd64'));
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'CANCELLED' });
    expect((await second).digest).toBe(images.amd64.digest);
  });

  it('names the image and the registry answer when the image cannot be had', async () => {
    const store = new ImageStore({ cacheDir: cacheDir() });
    const error = await store.pull(name(':nope')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImagePullError);
    expect((error as ImagePullError).message).toBe(
      `image "${name(':nope')}" could not be pulled: ${registry.host} answered 404 MANIFEST_UNKNOWN manifest unknown`,
    );
    expect((error as ImagePullError).status).toBe(404);
    await expect(store.pull(`${registry.host}/no/such:1`)).rejects.toThrow(
      new RegExp(
        `^image "${registry.host}/no/such:1" could not be pulled: ${registry.host} answered 404 (NAME|MANIFEST)_UNKNOWN`,
      ),
    );
    const controller = new AbortController();
    controller.abort();
    await expect(store.pull(name(':amd64'), undefined, controller.signal)).rejects.toThrow(
      'the pull was cancelled',
    );
  });

  it('refuses a layer with an entry escaping the root, leaving nothing behind', async () => {
    const cache = cacheDir();
    const ref = `${registry.host}/test/hostile:v1`;
    await expect(new ImageStore({ cacheDir: cache }).pull(ref)).rejects.toThrow(
      `image "${ref}" could not be pulled: layer ${images.hostile.layerDigests[0]} has an entry "../evil" that has a ".." component; it was refused`,
    );
    expect(readdirSync(path.join(cache, 'tmp'))).toEqual([]);
    expect(existsSync(path.join(cache, 'rootfs', images.hostile.digest.slice(7)))).toBe(false);
    expect(existsSync(path.join(cache, 'evil'))).toBe(false);
  });
});
