/** The parts of an image's config that decide how a step's process starts. */
export interface ImageConfig {
  entrypoint: string[];
  cmd: string[];
  /** `NAME=value` strings, as in the image config */
  env: string[];
  /** empty when the image sets none */
  workingDir: string;
  /** empty when the image sets none; else `user`, `uid`, `user:group` or `uid:gid` */
  user: string;
}

export interface PulledImage {
  /** the reference as given to pull() */
  reference: string;
  /** the image manifest's digest (`sha256:…`), for the platform picked from an index */
  digest: string;
  /** the index's digest when the reference named a multi-platform index */
  indexDigest?: string;
  /** absolute directory of the unpacked root filesystem; shared, for read-only use */
  rootfs: string;
  config: ImageConfig;
  /** os/architecture[/variant] of the image */
  platform: string;
  /** true when no registry was asked (cached by digest, or the registry could not be reached) */
  fromCache: boolean;
}

/** One entry of a docker config.json `auths` map. */
export interface RegistryAuth {
  /** base64 of `user:password` */
  auth?: string;
  username?: string;
  password?: string;
  /** an OAuth2 refresh token for the registry's token service */
  identitytoken?: string;
  /** a bearer token to send as it is */
  registrytoken?: string;
}

/**
 * A docker config.json `auths` map: registry host → credentials. Keys may be a host (`ghcr.io`,
 * `host:5000`), a URL (`https://host/v2/`), and `https://index.docker.io/v1/` means Docker Hub.
 */
export type RegistryCredentials = Record<string, RegistryAuth>;

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export interface ImageStoreOptions {
  /** directory of the cache: `rootfs/<digest hex>/`, `configs/`, `index.json`, `tmp/` */
  cacheDir: string;
  /** the platform to pick from multi-platform indexes; linux and Node's architecture by default */
  platform?: Platform;
  /** `host:port` registries reached over plain http; loopback hosts always are */
  insecureRegistries?: string[];
  fetch?: typeof fetch;
  /** how long re-checking a cached tag may take before the cached digest is used (10 s) */
  onlineCheckTimeoutMs?: number;
}
