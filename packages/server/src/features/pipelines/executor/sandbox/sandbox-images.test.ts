import { existsSync, readFileSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  registryAvailable,
  startOciRegistry,
  type OciRegistry,
} from '../../../../test-support/oci-registry.js';
import { gzipTar, imageConfig, pushImage } from '../../../../test-support/oci-test-images.js';
import { startTokenAuthProxy } from '../../../../test-support/registry-auth-proxy.js';
import { ImageStore } from '../images/index.js';
import { checkDefinition } from '../../definition/check-definition.js';
import { resolveTaskRun } from '../../definition/resolve-task-run.js';
import { LocalExecutor } from '../local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from '../local-executor.test-helper.js';
import type { StepImages } from './task-sandbox.js';
import { sandboxSupport, SANDBOX_HOST_USER } from '../../../../test-support/sandbox.js';

const HOST_USER = SANDBOX_HOST_USER;
const BUSYBOX = '/usr/bin/busybox';
const support = sandboxSupport();
const runnable = support.available && registryAvailable && existsSync(BUSYBOX);
if (!runnable) {
  if (process.env.CI || process.env.SLIPWAY_REQUIRE_SANDBOX)
    throw new Error(
      `sandboxed image tests cannot run: sandbox ${support.reason || 'ok'}, registry ${registryAvailable}, busybox ${existsSync(BUSYBOX)}`,
    );
  console.warn('sandboxed image tests skipped: no sandbox, docker-registry or busybox-static here');
}

describe.runIf(runnable)('sandboxed steps in their own image (SLIPWAY_STEP_IMAGES=pull)', () => {
  let registry: OciRegistry;
  let dir: string;
  let cleanup: () => Promise<void>;
  let image: string;
  let images: StepImages;
  const pulls: string[] = [];

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    await chmod(dir, 0o711);
    registry = await startOciRegistry();
    const layer = gzipTar([
      { path: 'bin', type: 'directory' },
      { path: 'bin/busybox', content: readFileSync(BUSYBOX), mode: 0o755 },
      { path: 'bin/sh', type: 'symlink', linkpath: 'busybox' },
      { path: 'bin/echo', type: 'symlink', linkpath: 'busybox' },
      { path: 'bin/cat', type: 'symlink', linkpath: 'busybox' },
      { path: 'bin/ls', type: 'symlink', linkpath: 'busybox' },
      { path: 'bin/id', type: 'symlink', linkpath: 'busybox' },
      { path: 'etc', type: 'directory' },
      { path: 'etc/image-release', content: 'slipway test image\n' },
      { path: 'app', type: 'directory' },
    ]);
    await pushImage(registry.url, 'test/busybox', '1', {
      layers: [layer],
      config: imageConfig('amd64', {
        Entrypoint: ['/bin/echo', 'entrypoint:'],
        Cmd: ['from-cmd'],
        Env: ['PATH=/bin', 'GREETING=from-image'],
        WorkingDir: '/app',
      }),
    });
    image = `${new URL(registry.url).host}/test/busybox:1`;
    const store = new ImageStore({ cacheDir: join(dir, 'images') });
    images = {
      pull: async (reference, signal, auths) => {
        pulls.push(reference);
        const pulled = await store.pull(reference, auths, signal);
        return { rootfs: pulled.rootfs, config: pulled.config };
      },
    };
  });
  afterAll(async () => {
    await registry?.stop();
    await cleanup?.();
  });

  const executor = () =>
    new LocalExecutor({
      scratchRoot: join(dir, 'scratch'),
      sandbox: { support, hostUser: HOST_USER, netAllow: [], images },
    });

  it("runs a script in the image's filesystem, with its env and WORKDIR, and none of the host's", async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(dir, [
        step('script', {
          image,
          script: 'cat /etc/image-release; echo "$GREETING"; test -e /usr/bin/node || echo no-host-usr; pwd',
        }),
      ]),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout')).toEqual(['slipway test image', 'from-image', 'no-host-usr', '/app']);
  });

  it("follows Kubernetes' entrypoint rules: args alone, neither, and command", async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(dir, [
        step('args', { image, args: ['from-args'] }),
        step('neither', { image }),
        step('command', { image, command: ['/bin/echo'], args: ['own-command'] }),
      ]),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout')).toEqual(['entrypoint: from-args', 'entrypoint: from-cmd', 'own-command']);
    // one pull for the task's three steps
    expect(pulls.filter((p) => p === image).length).toBeGreaterThanOrEqual(1);
  });

  it("runs a Tekton Task's image-only step (entrypoint, args replacing cmd) and a script without #! with the image's sh", async () => {
    const parsed = checkDefinition(`apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: entrypoints
spec:
  steps:
    - name: entrypoint
      image: ${image}
    - name: with-args
      image: ${image}
      args: [hello, $(params.who)]
    - name: script
      image: ${image}
      script: ls -l /proc/$$/exe
  params:
    - name: who
      default: tekton
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const run = resolveTaskRun({ name: 'entrypoints', taskRef: { name: 'entrypoints' } }, parsed.tasks[0]!, {
      resultsDir: join(dir, 'results-entrypoints'),
      containerPaths: true,
    });
    const io = recordingIo();
    const outcome = await executor().runTask(run, io, neverAborted());
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout', 'entrypoint')).toEqual(['entrypoint: from-cmd']);
    expect(io.texts('stdout', 'with-args')).toEqual(['entrypoint: hello tekton']);
    expect(io.texts('stdout', 'script')[0]).toMatch(/-> \/bin\/busybox$/);
  });

  it("pulls a private image with the workspace's docker-config secret, and names the registry's refusal without it", async () => {
    const proxy = await startTokenAuthProxy(registry.url, { username: 'ci', password: 's3cret' });
    try {
      const privateImage = `${proxy.host}/test/busybox:1`;
      const dockerConfig = JSON.stringify({
        auths: { [proxy.host]: { auth: Buffer.from('ci:s3cret').toString('base64') } },
      });
      const io = recordingIo({ 'docker-config/.dockerconfigjson': dockerConfig });
      const outcome = await executor().runTask(
        taskRun(dir, [step('private', { image: privateImage, script: 'cat /etc/image-release' })]),
        io,
        neverAborted(),
      );
      expect(outcome.status, outcome.reason).toBe('succeeded');
      expect(io.texts('stdout')).toEqual(['slipway test image']);
      expect(proxy.tokenRequests.some((r) => r.authorized)).toBe(true);

      const refused = await executor().runTask(
        taskRun(dir, [step('anonymous', { image: `${proxy.host}/test/busybox:1`, script: 'true' })]),
        recordingIo(),
        neverAborted(),
      );
      expect(refused.status).toBe('failed');
      expect(refused.reason).toContain(`image "${privateImage}" could not be pulled`);
      expect(refused.reason).toContain('401');
    } finally {
      await proxy.stop();
    }
  });

  it("fails the step with the image's name and the registry's answer when it cannot be had", async () => {
    const io = recordingIo();
    const missing = `${new URL(registry.url).host}/test/nothing:1`;
    const outcome = await executor().runTask(
      taskRun(dir, [step('gone', { image: missing, script: 'true' })]),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toContain('test/nothing:1');
    expect(outcome.reason).toMatch(/404|MANIFEST_UNKNOWN|NAME_UNKNOWN/);
  });
});
