import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/**
 * Builds image layers and pushes images to a real registry with the distribution API, without
 * Docker: tar archives made here (ustar, with pax headers for long names), blobs uploaded
 * monolithically (POST for an upload URL, then one PUT with the digest).
 */
export interface TarMember {
  path: string;
  type?: 'file' | 'directory' | 'symlink' | 'hardlink' | 'character' | 'fifo';
  content?: Buffer | string;
  mode?: number;
  linkpath?: string;
  mtime?: number;
}

const TYPEFLAG = {
  file: '0',
  hardlink: '1',
  symlink: '2',
  character: '3',
  directory: '5',
  fifo: '6',
} as const;

function header(name: string, member: TarMember, typeflag: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  const put = (value: string, offset: number, length: number) => block.write(value, offset, length, 'utf8');
  const octal = (value: number, offset: number, length: number) =>
    put(value.toString(8).padStart(length - 1, '0') + '\0', offset, length);
  put(name, 0, 100);
  octal(member.mode ?? (member.type === 'directory' ? 0o755 : 0o644), 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(member.mtime ?? 1_700_000_000, 136, 12);
  block.fill(0x20, 148, 156);
  put(typeflag, 156, 1);
  put((member.linkpath ?? '').slice(0, 100), 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  if (member.type === 'character') {
    octal(1, 329, 8);
    octal(3, 337, 8);
  }
  let sum = 0;
  for (const byte of block) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return block;
}

const pad = (data: Buffer) => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = body.length + 1;
  while (`${len}${body}`.length !== len) len = `${len}${body}`.length;
  return `${len}${body}`;
}

/** A tar archive of the members, in order. */
export function buildTar(members: TarMember[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const type = member.type ?? 'file';
    const content = type === 'file' ? Buffer.from(member.content ?? '') : Buffer.alloc(0);
    const name = type === 'directory' && !member.path.endsWith('/') ? `${member.path}/` : member.path;
    const pax = [
      Buffer.byteLength(name) > 100 ? paxRecord('path', name) : '',
      Buffer.byteLength(member.linkpath ?? '') > 100 ? paxRecord('linkpath', member.linkpath!) : '',
    ].join('');
    if (pax) {
      const data = Buffer.from(pax);
      blocks.push(header('PaxHeaders/x', { path: 'PaxHeaders/x' }, 'x', data.length), pad(data));
    }
    blocks.push(header(name.slice(0, 100), member, TYPEFLAG[type], content.length), pad(content));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export function gzipTar(members: TarMember[]): Buffer {
  return gzipSync(buildTar(members));
}

export function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os: string; architecture: string; variant?: string };
}

/** Uploads a blob: POST /v2/<repo>/blobs/uploads/, then PUT <location>?digest=… with the bytes. */
export async function pushBlob(registryUrl: string, repository: string, bytes: Buffer): Promise<string> {
  const digest = sha256(bytes);
  const start = await fetch(`${registryUrl}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
  if (start.status !== 202) throw new Error(`blob upload start: HTTP ${start.status} ${await start.text()}`);
  const location = new URL(start.headers.get('location')!, registryUrl);
  location.searchParams.set('digest', digest);
  const put = await fetch(location, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    body: bytes,
  });
  if (put.status !== 201) throw new Error(`blob upload: HTTP ${put.status} ${await put.text()}`);
  return digest;
}

/** PUT /v2/<repo>/manifests/<reference>; the manifest's digest. */
export async function pushManifest(
  registryUrl: string,
  repository: string,
  reference: string,
  manifest: object,
): Promise<{ digest: string; size: number; mediaType: string; bytes: Buffer }> {
  const bytes = Buffer.from(JSON.stringify(manifest));
  const mediaType = (manifest as { mediaType: string }).mediaType;
  const res = await fetch(`${registryUrl}/v2/${repository}/manifests/${reference}`, {
    method: 'PUT',
    headers: { 'content-type': mediaType },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`manifest push: HTTP ${res.status} ${await res.text()}`);
  return { digest: sha256(bytes), size: bytes.length, mediaType, bytes };
}

export interface TestImage {
  digest: string;
  size: number;
  mediaType: string;
  configDigest: string;
  layerDigests: string[];
}

/** Pushes gzip layers, a config and an OCI (or Docker v2) manifest, tagged `tag`. */
export async function pushImage(
  registryUrl: string,
  repository: string,
  tag: string,
  image: { layers: Buffer[]; config: object; format?: 'oci' | 'docker' },
): Promise<TestImage> {
  const docker = image.format === 'docker';
  const layerType = docker
    ? 'application/vnd.docker.image.rootfs.diff.tar.gzip'
    : 'application/vnd.oci.image.layer.v1.tar+gzip';
  const layers: Descriptor[] = [];
  for (const layer of image.layers) {
    layers.push({
      mediaType: layerType,
      digest: await pushBlob(registryUrl, repository, layer),
      size: layer.length,
    });
  }
  const configBytes = Buffer.from(JSON.stringify(image.config));
  const configDigest = await pushBlob(registryUrl, repository, configBytes);
  const manifest = {
    schemaVersion: 2,
    mediaType: docker
      ? 'application/vnd.docker.distribution.manifest.v2+json'
      : 'application/vnd.oci.image.manifest.v1+json',
    config: {
      mediaType: docker
        ? 'application/vnd.docker.container.image.v1+json'
        : 'application/vnd.oci.image.config.v1+json',
      digest: configDigest,
      size: configBytes.length,
    },
    layers,
  };
  const pushed = await pushManifest(registryUrl, repository, tag, manifest);
  return { ...pushed, configDigest, layerDigests: layers.map((l) => l.digest) };
}

/** Pushes an OCI index of already pushed images, tagged `tag`. */
export async function pushIndex(
  registryUrl: string,
  repository: string,
  tag: string,
  entries: { image: TestImage; platform: { os: string; architecture: string; variant?: string } }[],
): Promise<{ digest: string }> {
  return pushManifest(registryUrl, repository, tag, {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: entries.map(({ image, platform }) => ({
      mediaType: image.mediaType,
      digest: image.digest,
      size: image.size,
      platform,
    })),
  });
}

/** An image config blob with the fields a step cares about. */
export function imageConfig(
  architecture: string,
  config: { Entrypoint?: string[]; Cmd?: string[]; Env?: string[]; WorkingDir?: string; User?: string },
  diffIds: string[] = [],
): object {
  return { architecture, os: 'linux', config, rootfs: { type: 'layers', diff_ids: diffIds } };
}
