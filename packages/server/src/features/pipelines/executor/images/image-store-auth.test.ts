import { mkdtempSync, rmSync } from 'node:fs';
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
import { startTokenAuthProxy, type AuthProxy } from '../../../../test-support/registry-auth-proxy.js';
import { ImageStore } from './image-store.js';

const runnable = registryAvailable || buildahRequired;
if (!runnable) console.log(`image registry auth tests skipped: no docker-registry at ${REGISTRY_BIN}`);

const USER = 'robot';
const PASSWORD = 's3cret';

/** A real registry behind a loopback front that asks for a bearer token (or basic credentials). */
describe.skipIf(!runnable)('ImageStore registry authentication', () => {
  let registry: OciRegistry;
  let image: TestImage;
  let dir: string;
  let n = 0;
  const store = () => new ImageStore({ cacheDir: path.join(dir, `cache-${++n}`) });
  const auth = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

  beforeAll(async () => {
    registry = await startOciRegistry();
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-images-auth-'));
    image = await pushImage(registry.url, 'private/app', '1.0', {
      layers: [gzipTar([{ path: 'app', content: 'private' }])],
      config: imageConfig('amd64', { Entrypoint: ['/app'] }),
    });
  });
  afterAll(async () => {
    await registry?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function withProxy(scheme: 'bearer' | 'basic', run: (proxy: AuthProxy) => Promise<void>) {
    const proxy = await startTokenAuthProxy(registry.url, { username: USER, password: PASSWORD }, scheme);
    try {
      await run(proxy);
    } finally {
      await proxy.stop();
    }
  }

  it('gets a bearer token from the realm with the docker-config credentials, then pulls', async () => {
    await withProxy('bearer', async (proxy) => {
      const ref = `${proxy.host}/private/app:1.0`;
      const pulled = await store().pull(ref, {
        'https://index.docker.io/v1/': { auth: 'bm90OnRoaXM=' },
        [`http://${proxy.host}/v2/`]: { auth },
      });
      expect(pulled.digest).toBe(image.digest);
      expect(pulled.config.entrypoint).toEqual(['/app']);
      expect(proxy.tokenRequests).toEqual([
        { service: 'slipway-test', scope: ['repository:private/app:pull'], authorized: true },
      ]);
      expect(proxy.proxied).toEqual([
        'GET /v2/private/app/manifests/1.0',
        `GET /v2/private/app/blobs/${image.configDigest}`,
        `GET /v2/private/app/blobs/${image.layerDigests[0]}`,
      ]);
    });
  });

  it('names the token service answer when the credentials are missing or wrong', async () => {
    await withProxy('bearer', async (proxy) => {
      const ref = `${proxy.host}/private/app:1.0`;
      const answer = `${proxy.host}'s token service ${proxy.host} answered 401 UNAUTHORIZED bad credentials`;
      await expect(store().pull(ref)).rejects.toThrow(`image "${ref}" could not be pulled: ${answer}`);
      await expect(
        store().pull(ref, { [proxy.host]: { username: USER, password: 'wrong' } }),
      ).rejects.toThrow(`image "${ref}" could not be pulled: ${answer}`);
      expect(proxy.proxied).toEqual([]);
    });
  });

  it('answers a basic challenge with the credentials', async () => {
    await withProxy('basic', async (proxy) => {
      const ref = `${proxy.host}/private/app:1.0`;
      await expect(store().pull(ref)).rejects.toThrow(
        `image "${ref}" could not be pulled: ${proxy.host} answered 401 UNAUTHORIZED authentication required`,
      );
      const pulled = await store().pull(ref, { [proxy.host]: { username: USER, password: PASSWORD } });
      expect(pulled.digest).toBe(image.digest);
    });
  });
});
