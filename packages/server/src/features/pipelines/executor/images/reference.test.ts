import { describe, expect, it } from 'vitest';
import { ImagePullError } from './errors.js';
import { findRegistryAuth, parseWwwAuthenticate } from './credentials.js';
import { selectPlatform, type Descriptor } from './manifest.js';
import { parseImageReference } from './reference.js';
import { resolveStepCommand } from './resolve-step-command.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('parseImageReference', () => {
  it.each([
    ['busybox', { registry: 'registry-1.docker.io', repository: 'library/busybox', tag: 'latest' }],
    ['busybox:1.36', { registry: 'registry-1.docker.io', repository: 'library/busybox', tag: '1.36' }],
    ['user/app:1', { registry: 'registry-1.docker.io', repository: 'user/app', tag: '1' }],
    [
      'docker.io/library/alpine',
      { registry: 'registry-1.docker.io', repository: 'library/alpine', tag: 'latest' },
    ],
    [
      'index.docker.io/alpine:3',
      { registry: 'registry-1.docker.io', repository: 'library/alpine', tag: '3' },
    ],
    ['host:5000/a/b:tag', { registry: 'host:5000', repository: 'a/b', tag: 'tag' }],
    ['localhost/x', { registry: 'localhost', repository: 'x', tag: 'latest' }],
    ['ghcr.io/org/img', { registry: 'ghcr.io', repository: 'org/img', tag: 'latest' }],
    ['[::1]:5000/x:y', { registry: '[::1]:5000', repository: 'x', tag: 'y' }],
    [`name@${DIGEST}`, { registry: 'registry-1.docker.io', repository: 'library/name', digest: DIGEST }],
    [`a.io/n:t@${DIGEST}`, { registry: 'a.io', repository: 'n', tag: 't', digest: DIGEST }],
    ['my_app/x-y.z__w', { registry: 'registry-1.docker.io', repository: 'my_app/x-y.z__w', tag: 'latest' }],
  ])('%s', (ref, expected) => {
    expect(parseImageReference(ref)).toEqual(expected);
  });

  it.each([
    ['', 'must not be empty'],
    [' busybox', 'spaces'],
    ['Busybox', 'must be lowercase'],
    ['user/App', 'must be lowercase'],
    ['busybox:', 'the tag ""'],
    ['busybox:-x', 'the tag "-x"'],
    ['a//b', 'not a valid repository path component'],
    ['a/b_', 'not a valid repository path component'],
    ['busybox@sha256:abc', '64 lowercase hex digits'],
    [`busybox@sha512:${'a'.repeat(128)}`, 'only sha256'],
    ['busybox@latest', 'algorithm:hex'],
    ['-bad.io/x', 'not a valid registry host'],
    [':5000/x', '":5000" is not a valid registry host'],
    [':latest', 'the repository name is missing'],
  ])('refuses %j', (ref, rule) => {
    let error: unknown;
    try {
      parseImageReference(ref);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImagePullError);
    expect((error as ImagePullError).message).toContain(
      `image "${ref}" could not be pulled: invalid image reference`,
    );
    expect((error as ImagePullError).message).toContain(rule);
    expect((error as ImagePullError).code).toBe('INVALID_REFERENCE');
  });
});

describe('credentials', () => {
  it('matches docker config keys by host; index.docker.io/v1 is Docker Hub', () => {
    const creds = {
      'https://index.docker.io/v1/': { auth: 'aHViOnNlY3JldA==' },
      'https://registry.example.com:5000/v2/': { username: 'u', password: 'p' },
    };
    expect(findRegistryAuth(creds, 'registry-1.docker.io')).toEqual({ auth: 'aHViOnNlY3JldA==' });
    expect(findRegistryAuth(creds, 'registry.example.com:5000')).toEqual({ username: 'u', password: 'p' });
    expect(findRegistryAuth(creds, 'registry.example.com')).toBeUndefined();
  });

  it('parses bearer challenges', () => {
    expect(
      parseWwwAuthenticate(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/busybox:pull"',
      ),
    ).toEqual({
      scheme: 'bearer',
      params: {
        realm: 'https://auth.docker.io/token',
        service: 'registry.docker.io',
        scope: 'repository:library/busybox:pull',
      },
    });
    expect(parseWwwAuthenticate('Basic realm="Registry"')).toEqual({
      scheme: 'basic',
      params: { realm: 'Registry' },
    });
  });
});

describe('selectPlatform', () => {
  const entry = (architecture: string, variant?: string): Descriptor => ({
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    digest: `sha256:${architecture.padEnd(64, '0').slice(0, 64)}`,
    size: 1,
    platform: { os: 'linux', architecture, ...(variant ? { variant } : {}) },
  });
  const index = [entry('amd64'), entry('arm', 'v6'), entry('arm', 'v7'), entry('arm64', 'v8')];

  it('picks by os, architecture and variant', () => {
    expect(selectPlatform(index, { os: 'linux', architecture: 'amd64' })).toBe(index[0]);
    expect(selectPlatform(index, { os: 'linux', architecture: 'arm', variant: 'v7' })).toBe(index[2]);
    expect(selectPlatform(index, { os: 'linux', architecture: 'arm64' })).toBe(index[3]);
  });

  it('names the platforms it has when the one wanted is missing', () => {
    expect(() => selectPlatform(index, { os: 'linux', architecture: 's390x' })).toThrow(
      'the image has no linux/s390x variant (it has linux/amd64, linux/arm/v6, linux/arm/v7, linux/arm64/v8)',
    );
  });
});

describe('resolveStepCommand (Kubernetes rules)', () => {
  const config = { entrypoint: ['/entry'], cmd: ['default'], env: [], workingDir: '', user: '' };

  it('command replaces Entrypoint and Cmd; args replace Cmd', () => {
    expect(resolveStepCommand({ command: ['sh', '-c'], args: ['echo hi'] }, config)).toEqual([
      'sh',
      '-c',
      'echo hi',
    ]);
    expect(resolveStepCommand({ command: ['ls'] }, config)).toEqual(['ls']);
    expect(resolveStepCommand({ args: ['x'] }, config)).toEqual(['/entry', 'x']);
    expect(resolveStepCommand({}, config)).toEqual(['/entry', 'default']);
    expect(resolveStepCommand({ command: [], args: [] }, { ...config, entrypoint: [] })).toEqual(['default']);
  });

  it('throws when nothing is left to run', () => {
    expect(() => resolveStepCommand({}, { ...config, entrypoint: [], cmd: [] })).toThrow(
      'the step has no command',
    );
  });
});
