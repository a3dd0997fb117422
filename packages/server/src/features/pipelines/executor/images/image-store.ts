import { createHash } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { checkDigest, readBlob, sha256Digest, unpackLayer } from './blob.js';
import { findRegistryAuth } from './credentials.js';
import { PullFailure, toImagePullError } from './errors.js';
import { ImageCache, type CachedImage } from './image-cache.js';
import { RootfsWriter } from './layer-unpacker.js';
import {
  defaultPlatform,
  formatPlatform,
  MANIFEST_ACCEPT,
  parseImageConfig,
  parseManifest,
  selectPlatform,
  type ParsedManifest,
} from './manifest.js';
import { canonicalReference, parseImageReference, type ImageReference } from './reference.js';
import { RegistryClient } from './registry-client.js';
import { forceRemove } from './safe-path.js';
import type { ImageStoreOptions, Platform, PulledImage, RegistryAuth, RegistryCredentials } from './types.js';

const CONFIG_MAX = 16 * 1024 * 1024;
const IMAGE_CONFIG_TYPES = new Set([
  'application/vnd.oci.image.config.v1+json',
  'application/vnd.docker.container.image.v1+json',
]);

interface InFlight {
  promise: Promise<PulledImage>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

/**
 * Turns image references into unpacked root filesystems under `cacheDir` (see ImageCache), for
 * the local executor's sandbox. Pulls of the same image in this process share one download;
 * other processes may pull into the same cache at the same time (the first rename wins).
 */
export class ImageStore {
  private readonly cache: ImageCache;
  private readonly platform: Platform;
  private readonly platformName: string;
  private readonly insecureRegistries: string[];
  private readonly fetchImpl: typeof fetch;
  private readonly onlineCheckTimeoutMs: number;
  private readonly inFlight = new Map<string, InFlight>();
  private swept: Promise<void> | undefined;

  constructor(options: ImageStoreOptions) {
    this.cache = new ImageCache(path.resolve(options.cacheDir));
    this.platform = options.platform ?? defaultPlatform();
    this.platformName = formatPlatform(this.platform);
    this.insecureRegistries = options.insecureRegistries ?? [];
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.onlineCheckTimeoutMs = options.onlineCheckTimeoutMs ?? 10_000;
  }

  /** The directory a pulled image's rootfs is in (whether or not it is there yet). */
  rootfsPath(digest: string): string {
    return this.cache.rootfsPath(digest);
  }

  /**
   * The image's rootfs and config, from the cache or the registry. Fails with an ImagePullError
   * naming the image and the registry's answer.
   */
  async pull(
    reference: string,
    credentials?: RegistryCredentials,
    signal?: AbortSignal,
  ): Promise<PulledImage> {
    const ref = parseImageReference(reference);
    const auth = findRegistryAuth(credentials, ref.registry);
    const authKey = auth ? createHash('sha256').update(JSON.stringify(auth)).digest('hex').slice(0, 12) : '';
    const key = `${canonicalReference(ref)} ${this.platformName} ${authKey}`;
    let entry = this.inFlight.get(key);
    if (!entry) {
      const controller = new AbortController();
      const created: InFlight = {
        promise: Promise.resolve(undefined as never),
        controller,
        waiters: 0,
        settled: false,
      };
      created.promise = this.pullOnce(ref, auth, controller.signal).finally(() => {
        created.settled = true;
        if (this.inFlight.get(key) === created) this.inFlight.delete(key);
      });
      created.promise.catch(() => undefined); // each waiter gets the failure; none unhandled
      this.inFlight.set(key, created);
      entry = created;
    }
    entry.waiters++;
    try {
      const image = await waitFor(entry.promise, signal);
      return { ...image, reference };
    } catch (error) {
      throw toImagePullError(reference, error);
    } finally {
      entry.waiters--;
      if (entry.waiters === 0 && !entry.settled) {
        // nobody waits any more: stop the download; a later pull starts afresh
        if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
        entry.controller.abort();
      }
    }
  }

  private async pullOnce(
    ref: ImageReference,
    auth: RegistryAuth | undefined,
    signal: AbortSignal,
  ): Promise<PulledImage> {
    this.swept ??= this.cache.sweepTemp().catch(() => undefined);
    await this.swept;
    const client = new RegistryClient({
      registry: ref.registry,
      repository: ref.repository,
      auth,
      insecureRegistries: this.insecureRegistries,
      fetch: this.fetchImpl,
      signal,
    });
    if (ref.digest) {
      const local = await this.fromCache(ref.digest);
      if (local) return local;
      return this.fromRegistry(client, ref, ref.digest, signal);
    }
    const tagKey = canonicalReference(ref);
    const known = (await this.cache.readIndex()).tags[tagKey];
    const local = known ? await this.fromCache(known.digest) : undefined;
    if (known && local) {
      let current: string | undefined;
      try {
        const timeout = AbortSignal.timeout(this.onlineCheckTimeoutMs);
        current = await client.manifestDigest(ref.tag!, MANIFEST_ACCEPT, AbortSignal.any([signal, timeout]));
      } catch (error) {
        if (signal.aborted || !offline(error)) throw error;
        return local; // the registry cannot be reached: the tag's last known image serves
      }
      if (current === known.digest) {
        await this.cache.remember({ tag: tagKey, tagDigest: current });
        return { ...local, fromCache: false };
      }
    }
    return this.fromRegistry(client, ref, ref.tag!, signal);
  }

  /** A cached image by its manifest digest, or by an index digest already resolved for this platform. */
  private async fromCache(digest: string): Promise<PulledImage | undefined> {
    const direct = await this.cache.image(digest);
    if (direct) return this.toPulled(direct, undefined, true);
    const mapped = (await this.cache.readIndex()).platforms[`${digest} ${this.platformName}`];
    const image = mapped ? await this.cache.image(mapped) : undefined;
    return image ? this.toPulled(image, digest, true) : undefined;
  }

  private toPulled(image: CachedImage, indexDigest: string | undefined, fromCache: boolean): PulledImage {
    return {
      reference: image.reference,
      digest: image.digest,
      ...(indexDigest ? { indexDigest } : {}),
      rootfs: this.cache.rootfsPath(image.digest),
      config: image.config,
      platform: image.platform,
      fromCache,
    };
  }

  private async fromRegistry(
    client: RegistryClient,
    ref: ImageReference,
    tagOrDigest: string,
    signal: AbortSignal,
  ): Promise<PulledImage> {
    const top = await client.manifest(tagOrDigest, MANIFEST_ACCEPT);
    const topDigest = sha256Digest(top.bytes);
    if (ref.digest) checkDigest(top.bytes, ref.digest, 'the manifest');
    else if (top.digestHeader?.startsWith('sha256:') && top.digestHeader !== topDigest) {
      throw new PullFailure(
        `the manifest does not match the registry's digest: expected ${top.digestHeader}, got ${topDigest}`,
        'DIGEST_MISMATCH',
      );
    }
    let manifest: ParsedManifest = parseManifest(top.bytes, top.contentType);
    let imageDigest = topDigest;
    let indexDigest: string | undefined;
    if (manifest.kind === 'index') {
      indexDigest = topDigest;
      imageDigest = selectPlatform(manifest.manifests, this.platform).digest;
    }
    const remember = () =>
      this.cache.remember({
        tag: ref.digest ? undefined : canonicalReference(ref),
        tagDigest: topDigest,
        platformKey: indexDigest ? `${indexDigest} ${this.platformName}` : undefined,
        imageDigest,
      });

    const cached = await this.cache.image(imageDigest);
    if (cached) {
      await remember();
      return this.toPulled(cached, indexDigest, false);
    }
    if (manifest.kind === 'index') {
      const platformManifest = await client.manifest(imageDigest, MANIFEST_ACCEPT);
      checkDigest(platformManifest.bytes, imageDigest, `the ${this.platformName} manifest`);
      manifest = parseManifest(platformManifest.bytes, platformManifest.contentType);
      if (manifest.kind !== 'image') {
        throw new PullFailure(
          'the index names another index for the platform, which is not supported',
          'UNSUPPORTED',
        );
      }
    }
    if (manifest.config.mediaType && !IMAGE_CONFIG_TYPES.has(manifest.config.mediaType)) {
      throw new PullFailure(
        `it is not a container image (its config media type is ${manifest.config.mediaType})`,
        'UNSUPPORTED',
      );
    }
    const { config, platform } = parseImageConfig(
      await readBlob(client, manifest.config, 'the image config', CONFIG_MAX, signal),
    );

    const temp = await this.cache.tempDir(imageDigest);
    try {
      const writer = await RootfsWriter.create(temp);
      for (const layer of manifest.layers) await unpackLayer(client, layer, writer, signal);
      await writer.finish();
      await chmod(temp, 0o755);
      await this.cache.commit(temp, {
        digest: imageDigest,
        config,
        platform,
        reference: canonicalReference(ref),
        pulledAt: new Date().toISOString(),
      });
    } catch (error) {
      await forceRemove(temp).catch(() => undefined);
      throw error;
    }
    await remember();
    const image = await this.cache.image(imageDigest);
    if (!image) throw new PullFailure('its unpacked root filesystem vanished from the cache', 'LAYER');
    return this.toPulled(image, indexDigest, false);
  }
}

/** Errors that mean the registry is not there right now, rather than that it said no. */
function offline(error: unknown): boolean {
  if (error instanceof PullFailure) return error.code === 'UNREACHABLE' || (error.status ?? 0) >= 500;
  const name = (error as Error)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** The promise, or a CANCELLED failure as soon as `signal` aborts. */
function waitFor<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new PullFailure('the pull was cancelled', 'CANCELLED'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new PullFailure('the pull was cancelled', 'CANCELLED', { cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
