import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesRefusal } from './kubernetes-executor-refusals.js';
import { step, taskRun, tempDir } from './local-executor.test-helper.js';
import { fillStepValues, parseResultText, type StepDirs } from './step-values.js';

describe('step values filled when a step starts', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let dirs: StepDirs;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    dirs = { host: join(dir, 'steps'), inside: '/tekton/steps', credentials: '/tekton/creds' };
    await mkdir(join(dirs.host, 'step-build', 'results'), { recursive: true });
    await writeFile(join(dirs.host, 'step-build', 'results', 'digest'), 'sha256:abc\n');
    await writeFile(join(dirs.host, 'step-build', 'results', 'tags'), '["v1", "latest"]');
    await writeFile(
      join(dirs.host, 'step-build', 'results', 'image'),
      '{"url": "reg/app", "digest": "sha256:abc"}',
    );
  });
  afterEach(() => cleanup());

  it("reads result files as Tekton's entrypoint does: JSON arrays, objects and strings, else the text", () => {
    expect(parseResultText('["a","b"]')).toEqual(['a', 'b']);
    expect(parseResultText('{"k":"v"}')).toEqual({ k: 'v' });
    expect(parseResultText('"quoted"')).toBe('quoted');
    expect(parseResultText('[1, 2]')).toBe('[1, 2]');
    expect(parseResultText('plain text\n')).toBe('plain text');
  });

  it('fills values in env, command and args, and paths everywhere, leaving shell substitutions alone', async () => {
    const filled = await fillStepValues(
      step('push', {
        command: ['push', '$(steps.build.results.tags[*])'],
        args: [
          '--digest=$(steps.build.results.digest)',
          '$(steps.build.results.image.url)',
          '$(steps.build.results.tags[1])',
        ],
        env: { DIGEST: '$(steps.build.results.digest)', NOW: '$(date)' },
        script: 'cat $(steps.step-build.exitCode.path) > $(step.results.out.path); ls $(credentials.path)',
      }),
      dirs,
    );
    expect(filled.command).toEqual(['push', 'v1', 'latest']);
    expect(filled.args).toEqual(['--digest=sha256:abc', 'reg/app', 'latest']);
    expect(filled.env).toEqual({ DIGEST: 'sha256:abc', NOW: '$(date)' });
    expect(filled.script).toBe(
      'cat /tekton/steps/step-build/exitCode > /tekton/steps/step-push/results/out; ls /tekton/creds',
    );
  });

  it('names what is missing or misused', async () => {
    await expect(fillStepValues(step('a', { args: ['$(steps.build.results.nope)'] }), dirs)).rejects.toThrow(
      'step "build" did not write its result "nope"',
    );
    await expect(
      fillStepValues(step('a', { env: { T: '$(steps.build.results.tags[*])' } }), dirs),
    ).rejects.toThrow('an array or object can only replace a whole element of command or args');
    await expect(fillStepValues(step('a', { args: ['$(steps.build.results.tags)'] }), dirs)).rejects.toThrow(
      'result "tags" of step "build" is an array: use [*]',
    );
  });
});

describe('the Kubernetes executor', () => {
  it("refuses, naming the step, what its shell wrapper cannot give: an image's entrypoint, step values", () => {
    expect(kubernetesRefusal(taskRun('/d', [step('server', { args: ['-g'] })]))).toContain(
      'step "server" has neither command nor script',
    );
    expect(
      kubernetesRefusal(taskRun('/d', [step('s', { script: 'cat $(steps.step-a.exitCode.path)' })])),
    ).toContain('step "s" uses step results');
    expect(kubernetesRefusal(taskRun('/d', [step('s', { script: 'echo $(date)' })]))).toBeUndefined();
    // what its pod does not carry, rather than dropped without a word
    expect(
      kubernetesRefusal(
        taskRun('/d', [step('s', { script: 'true' })], {
          sidecars: [{ ...step('db', { command: ['postgres'] }), readiness: { tcpPort: 5432 } }],
        }),
      ),
    ).toContain('sidecar "db": the Kubernetes executor does not run sidecars');
    expect(
      kubernetesRefusal(
        taskRun('/d', [step('s', { script: 'true' })], { volumes: [{ name: 'cache', kind: 'emptyDir' }] }),
      ),
    ).toContain('volume "cache": the Kubernetes executor mounts only workspaces');
    expect(kubernetesRefusal(taskRun('/d', [step('s', { script: 'true', runAsUser: 1000 })]))).toContain(
      'securityContext.runAsUser',
    );
  });
});
