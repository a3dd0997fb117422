import { ImagePullError } from './errors.js';

/** An image reference split the way Docker does it. */
export interface ImageReference {
  /** registry host[:port]; Docker Hub is `registry-1.docker.io` */
  registry: string;
  /** repository path; Docker Hub's official images get `library/` */
  repository: string;
  /** the tag; `latest` when neither tag nor digest is given */
  tag?: string;
  /** `sha256:<64 hex>` */
  digest?: string;
}

export const DOCKER_HUB_REGISTRY = 'registry-1.docker.io';
const DOCKER_HUB_ALIASES = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = new RegExp(
  `^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]{1,5})?$`,
);
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const MAX_NAME = 255;

function invalid(ref: string, rule: string): ImagePullError {
  return new ImagePullError(ref, `invalid image reference: ${rule}`, { code: 'INVALID_REFERENCE' });
}

/**
 * Parses `[registry/]repository[:tag][@sha256:…]` like Docker: `busybox` is
 * registry-1.docker.io `library/busybox:latest`, the first part is a registry when it has a `.`
 * or a `:` or is `localhost`. A malformed reference throws an ImagePullError naming the rule.
 */
export function parseImageReference(ref: string): ImageReference {
  if (ref.trim() !== ref || ref === '') throw invalid(ref, 'it must not be empty or have spaces around it');
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[a-z0-9]+(?:[+._-][a-z0-9]+)*:/.test(digest)) {
      throw invalid(ref, `the digest "${digest}" must be algorithm:hex, e.g. sha256:<64 hex digits>`);
    }
    if (!digest.startsWith('sha256:')) throw invalid(ref, 'only sha256 digests are supported');
    if (!DIGEST.test(digest)) throw invalid(ref, 'a sha256 digest is 64 lowercase hex digits');
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) {
      throw invalid(
        ref,
        `the tag "${tag}" must be 1 to 128 letters, digits, "_", "." or "-", not starting with "." or "-"`,
      );
    }
  }
  if (rest === '') throw invalid(ref, 'the repository name is missing');

  let registry = DOCKER_HUB_REGISTRY;
  let repository = rest;
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    const first = rest.slice(0, slash);
    if (/[.:]/.test(first) || first === 'localhost' || first !== first.toLowerCase()) {
      if (!DOMAIN.test(first)) throw invalid(ref, `"${first}" is not a valid registry host[:port]`);
      registry = DOCKER_HUB_ALIASES.has(first) ? DOCKER_HUB_REGISTRY : first;
      repository = rest.slice(slash + 1);
    }
  }
  if (repository.length > MAX_NAME)
    throw invalid(ref, `the repository name is longer than ${MAX_NAME} characters`);
  for (const component of repository.split('/')) {
    if (component !== component.toLowerCase() && PATH_COMPONENT.test(component.toLowerCase())) {
      throw invalid(ref, 'the repository name must be lowercase');
    }
    if (!PATH_COMPONENT.test(component)) {
      throw invalid(
        ref,
        `"${component}" is not a valid repository path component (lowercase letters and digits, separated by ".", "_", "__" or "-")`,
      );
    }
  }
  if (registry === DOCKER_HUB_REGISTRY && !repository.includes('/')) repository = `library/${repository}`;
  if (!tag && !digest) tag = 'latest';
  return { registry, repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** `registry/repository:tag` or `registry/repository@digest`: the cache's key for a reference. */
export function canonicalReference(ref: ImageReference): string {
  const name = `${ref.registry}/${ref.repository}`;
  return ref.digest ? `${name}@${ref.digest}` : `${name}:${ref.tag ?? 'latest'}`;
}

/** A host that is this machine: its registry is spoken to over plain http. */
export function isLoopbackHost(hostPort: string): boolean {
  const host = hostPort.startsWith('[') ? hostPort.slice(1, hostPort.indexOf(']')) : hostPort.split(':')[0]!;
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
