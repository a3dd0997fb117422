import { DIGEST_RE } from './blob-storage.js';

/** The largest manifest taken (distribution's default limit). */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

const IMAGE_MANIFESTS = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];
const INDEXES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
];
/** The manifest kinds the registry stores: OCI and Docker v2 images, and their indexes. */
export const MANIFEST_MEDIA_TYPES = [...IMAGE_MANIFESTS, ...INDEXES];

/** Layers that live elsewhere (Windows base layers): pushed without their bytes. */
const FOREIGN_LAYERS = new Set([
  'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip',
  'application/vnd.oci.image.layer.nondistributable.v1.tar',
]);

interface Descriptor {
  mediaType?: unknown;
  digest?: unknown;
  size?: unknown;
}

export type ManifestCheck =
  | { ok: true; mediaType: string }
  | { ok: false; code: 'MANIFEST_INVALID' | 'MANIFEST_BLOB_UNKNOWN'; message: string };

/** What a check reads of the repository a manifest is pushed to. */
export interface ManifestLookup {
  blob(digest: string): Promise<number | null>;
  manifest(digest: string): Promise<unknown>;
}

const invalid = (message: string): ManifestCheck => ({ ok: false, code: 'MANIFEST_INVALID', message });

function descriptorError(d: Descriptor, where: string): string | null {
  if (!d || typeof d !== 'object') return `${where} is not a descriptor`;
  if (typeof d.digest !== 'string' || !DIGEST_RE.test(d.digest))
    return `${where}.digest is not a sha256 digest`;
  if (typeof d.size !== 'number' || !Number.isInteger(d.size) || d.size < 0)
    return `${where}.size is not a size`;
  return null;
}

/**
 * Checks a pushed manifest as distribution does: valid JSON of a kind it stores, its media type
 * the one it is sent as, and everything it names already in the repository (an image's config
 * and layers as blobs, an index's manifests as manifests).
 */
export async function checkManifest(
  bytes: Buffer,
  contentType: string,
  lookup: ManifestLookup,
): Promise<ManifestCheck> {
  let doc: {
    schemaVersion?: unknown;
    mediaType?: unknown;
    config?: Descriptor;
    layers?: unknown;
    manifests?: unknown;
  };
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    return invalid('the manifest is not JSON');
  }
  if (!doc || typeof doc !== 'object') return invalid('the manifest is not a JSON object');
  if (doc.schemaVersion !== 2) return invalid('only schemaVersion 2 manifests are taken');
  const declared = typeof doc.mediaType === 'string' ? doc.mediaType : undefined;
  const sent = MANIFEST_MEDIA_TYPES.includes(contentType) ? contentType : undefined;
  if (declared && sent && declared !== sent)
    return invalid(`the manifest says it is ${declared} but was sent as ${sent}`);
  const mediaType =
    sent ??
    declared ??
    (Array.isArray(doc.manifests) ? INDEXES[0]! : doc.config ? IMAGE_MANIFESTS[0]! : undefined);
  if (!mediaType || !MANIFEST_MEDIA_TYPES.includes(mediaType))
    return invalid(
      `${declared ?? contentType ?? 'this media type'} is not a manifest kind this registry stores`,
    );

  if (INDEXES.includes(mediaType)) {
    if (!Array.isArray(doc.manifests)) return invalid('an index needs a manifests list');
    for (const [i, child] of (doc.manifests as Descriptor[]).entries()) {
      const error = descriptorError(child, `manifests[${i}]`);
      if (error) return invalid(error);
      if (!(await lookup.manifest(child.digest as string)))
        return {
          ok: false,
          code: 'MANIFEST_BLOB_UNKNOWN',
          message: `manifest ${String(child.digest)} is not in this repository`,
        };
    }
    return { ok: true, mediaType };
  }
  const configError = descriptorError(doc.config as Descriptor, 'config');
  if (configError) return invalid(configError);
  if (!Array.isArray(doc.layers)) return invalid('an image manifest needs a layers list');
  const named: Descriptor[] = [doc.config as Descriptor];
  for (const [i, layer] of (doc.layers as Descriptor[]).entries()) {
    const error = descriptorError(layer, `layers[${i}]`);
    if (error) return invalid(error);
    if (!FOREIGN_LAYERS.has(String(layer.mediaType))) named.push(layer);
  }
  for (const d of named) {
    const size = await lookup.blob(d.digest as string);
    if (size === null)
      return {
        ok: false,
        code: 'MANIFEST_BLOB_UNKNOWN',
        message: `blob ${String(d.digest)} is not in this repository`,
      };
    if (size !== d.size) return invalid(`blob ${String(d.digest)} has ${size} bytes, not ${String(d.size)}`);
  }
  return { ok: true, mediaType };
}

/**
 * The bytes an image manifest's config and layers add up to, as its descriptors say; null for an
 * index (its platforms' images differ) or bytes that are not an image manifest.
 */
export function imageSizeOf(bytes: Buffer | null): number | null {
  if (!bytes) return null;
  try {
    const doc = JSON.parse(bytes.toString('utf8')) as { config?: Descriptor; layers?: unknown };
    if (!doc?.config || !Array.isArray(doc.layers)) return null;
    const sizes = [doc.config, ...(doc.layers as Descriptor[])].map((d) => d?.size);
    return sizes.every((s): s is number => typeof s === 'number')
      ? sizes.reduce((total, s) => total + s, 0)
      : null;
  } catch {
    return null;
  }
}
