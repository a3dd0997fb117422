import { PullFailure } from './errors.js';
import type { ImageConfig, Platform } from './types.js';

export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
} as const;

/** The Accept header for a manifest: indexes and image manifests, OCI and Docker v2 schema 2. */
export const MANIFEST_ACCEPT = [
  MEDIA_TYPES.ociIndex,
  MEDIA_TYPES.ociManifest,
  MEDIA_TYPES.dockerList,
  MEDIA_TYPES.dockerManifest,
].join(', ');

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
  annotations?: Record<string, string>;
}

export type ParsedManifest =
  { kind: 'index'; manifests: Descriptor[] } | { kind: 'image'; config: Descriptor; layers: Descriptor[] };

const DIGEST = /^sha256:[a-f0-9]{64}$/;

function descriptor(value: unknown, what: string): Descriptor {
  const d = value as Partial<Descriptor> | null;
  if (
    !d ||
    typeof d.digest !== 'string' ||
    typeof d.size !== 'number' ||
    !Number.isSafeInteger(d.size) ||
    d.size < 0
  ) {
    throw new PullFailure(`the manifest has a malformed ${what} descriptor`, 'UNSUPPORTED');
  }
  if (!DIGEST.test(d.digest)) {
    throw new PullFailure(`the manifest's ${what} digest ${d.digest} is not a sha256 digest`, 'UNSUPPORTED');
  }
  return { ...d, mediaType: typeof d.mediaType === 'string' ? d.mediaType : '' } as Descriptor;
}

/** An index or an image manifest, from its bytes and the Content-Type the registry sent. */
export function parseManifest(bytes: Buffer, contentType: string): ParsedManifest {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new PullFailure('the registry answered a manifest that is not JSON', 'UNSUPPORTED');
  }
  const mediaType = typeof body.mediaType === 'string' ? body.mediaType : contentType;
  if (body.schemaVersion === 1 || /^application\/vnd\.docker\.distribution\.manifest\.v1\+/.test(mediaType)) {
    throw new PullFailure('the image uses the deprecated Docker schema 1 manifest format', 'UNSUPPORTED');
  }
  if (
    mediaType === MEDIA_TYPES.ociIndex ||
    mediaType === MEDIA_TYPES.dockerList ||
    (!mediaType && Array.isArray(body.manifests))
  ) {
    if (!Array.isArray(body.manifests))
      throw new PullFailure('the image index lists no manifests', 'UNSUPPORTED');
    return { kind: 'index', manifests: body.manifests.map((m) => descriptor(m, 'platform manifest')) };
  }
  if (
    mediaType === MEDIA_TYPES.ociManifest ||
    mediaType === MEDIA_TYPES.dockerManifest ||
    (!mediaType && body.config)
  ) {
    if (!Array.isArray(body.layers))
      throw new PullFailure('the image manifest lists no layers', 'UNSUPPORTED');
    return {
      kind: 'image',
      config: descriptor(body.config, 'config'),
      layers: body.layers.map((l) => descriptor(l, 'layer')),
    };
  }
  throw new PullFailure(
    `the manifest's media type "${mediaType || 'none'}" is not an image manifest or index`,
    'UNSUPPORTED',
  );
}

const NODE_ARCH: Record<string, Platform> = {
  x64: { os: 'linux', architecture: 'amd64' },
  arm64: { os: 'linux', architecture: 'arm64' },
  arm: { os: 'linux', architecture: 'arm', variant: 'v7' },
  ia32: { os: 'linux', architecture: '386' },
  ppc64: { os: 'linux', architecture: 'ppc64le' },
  s390x: { os: 'linux', architecture: 's390x' },
  riscv64: { os: 'linux', architecture: 'riscv64' },
};

/** linux and Node's architecture in OCI's words (x64 → amd64). */
export function defaultPlatform(arch: string = process.arch): Platform {
  return NODE_ARCH[arch] ?? { os: 'linux', architecture: arch };
}

export function formatPlatform(p: { os?: string; architecture?: string; variant?: string }): string {
  return [p.os ?? 'unknown', p.architecture ?? 'unknown', p.variant].filter(Boolean).join('/');
}

/** The index entry for `platform`: exact variant first, then one without a variant. */
export function selectPlatform(manifests: Descriptor[], platform: Platform): Descriptor {
  const candidates = manifests.filter(
    (m) =>
      m.platform?.os === platform.os &&
      m.platform?.architecture === platform.architecture &&
      m.annotations?.['vnd.docker.reference.type'] !== 'attestation-manifest',
  );
  const pick = platform.variant
    ? (candidates.find((m) => m.platform?.variant === platform.variant) ??
      candidates.find((m) => !m.platform?.variant) ??
      (platform.architecture === 'arm64' ? candidates.find((m) => m.platform?.variant === 'v8') : undefined))
    : (candidates.find(
        (m) => !m.platform?.variant || (platform.architecture === 'arm64' && m.platform.variant === 'v8'),
      ) ?? candidates[0]);
  if (!pick) {
    const offered = manifests
      .filter((m) => m.platform)
      .map((m) => formatPlatform(m.platform!))
      .filter((p) => p !== 'unknown/unknown');
    throw new PullFailure(
      `the image has no ${formatPlatform(platform)} variant (it has ${offered.join(', ') || 'no platforms'})`,
      'PLATFORM',
    );
  }
  return pick;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The step-relevant part of an image config blob, and the image's platform. */
export function parseImageConfig(bytes: Buffer): { config: ImageConfig; platform: string } {
  let body: { os?: string; architecture?: string; variant?: string; config?: Record<string, unknown> | null };
  try {
    body = JSON.parse(bytes.toString('utf8')) as typeof body;
  } catch {
    throw new PullFailure('the image config is not JSON', 'UNSUPPORTED');
  }
  const c = body.config ?? {};
  return {
    config: {
      entrypoint: strings(c.Entrypoint),
      cmd: strings(c.Cmd),
      env: strings(c.Env),
      workingDir: typeof c.WorkingDir === 'string' ? c.WorkingDir : '',
      user: typeof c.User === 'string' ? c.User : '',
    },
    platform: formatPlatform(body),
  };
}
