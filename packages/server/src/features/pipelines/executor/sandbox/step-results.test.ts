import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDefinition } from '../../definition/check-definition.js';
import { resolveTaskRun } from '../../definition/resolve-task-run.js';
import { LocalExecutor } from '../local-executor.js';
import { neverAborted, recordingIo, tempDir } from '../local-executor.test-helper.js';
import { sandboxRequired, sandboxSupport, SANDBOX_HOST_USER } from '../../../../test-support/sandbox.js';

/*
 * Step results, step exit codes, StepActions and $(credentials.path) as the steps see them when
 * they run: Tekton's examples (examples/v1/taskruns/stepaction-passing-results.yaml,
 * stepaction-results.yaml, ignore-step-error.yaml) resolved from YAML and run, in the sandbox
 * (host mode: the host's /bin/sh, as these machines have no registry for every test) and unsandboxed.
 */

const support = sandboxSupport();
let dir: string;
let cleanup: () => Promise<void>;
let runs = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await chmod(dir, 0o711);
  if (!support.available && sandboxRequired) throw new Error(`no sandbox on this machine: ${support.reason}`);
});
afterAll(() => cleanup?.());

/** examples/v1/taskruns/stepaction-passing-results.yaml, its bash checks written for sh. */
const PASSING_RESULTS = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: step-action
spec:
  params:
    - name: param1
      type: array
    - name: param2
      type: string
    - name: param3
      type: object
      properties:
        IMAGE_URL: { type: string }
        IMAGE_DIGEST: { type: string }
  image: bash
  env:
    - name: STRINGPARAM
      value: $(params.param2)
  args: [
    "$(params.param1[*])",
    "$(params.param1[0])",
    "$(params.param3.IMAGE_URL)",
    "$(params.param3.IMAGE_DIGEST)",
  ]
  script: |
    echo "args: $*"
    [ "$1 $2 $3 $4 $5 $6" = "image1 image2 image3 image1 ar.com sha234" ] || exit 1
    [ "$STRINGPARAM" = foo ] || exit 2
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: step-action-run
spec:
  results:
    - name: from-step
      value: $(steps.inline-step.results.result2)
  steps:
    - name: inline-step
      results:
        - name: result1
          type: array
        - name: result2
          type: string
        - name: result3
          type: object
          properties:
            IMAGE_URL: { type: string }
            IMAGE_DIGEST: { type: string }
      image: alpine
      script: |
        printf '%s' '["image1", "image2", "image3"]' > $(step.results.result1.path)
        printf '%s' foo > $(step.results.result2.path)
        printf '%s' '{"IMAGE_URL":"ar.com", "IMAGE_DIGEST":"sha234"}' > $(step.results.result3.path)
    - name: action-runner
      ref:
        name: step-action
      params:
        - name: param1
          value: $(steps.inline-step.results.result1[*])
        - name: param2
          value: $(steps.inline-step.results.result2)
        - name: param3
          value: $(steps.inline-step.results.result3[*])
`;

/** examples/v1/taskruns/ignore-step-error.yaml, with docs/tasks.md's $(credentials.path). */
const EXIT_CODES = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: ignore-step-error
spec:
  steps:
    - name: exit-with-1
      image: alpine
      onError: continue
      script: exit 1
    - name: verify-step-path
      image: alpine
      script: |
        echo "exit code $(cat $(steps.step-exit-with-1.exitCode.path))"
        echo "by index $(cat $(dirname $(steps.step-exit-with-1.exitCode.path))/../0/exitCode)"
        ls -A $(credentials.path) | wc -l
`;

function task(text: string) {
  const result = checkDefinition(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.tasks[0]!;
}

async function run(text: string, sandboxed: boolean) {
  runs += 1;
  const resultsDir = join(dir, `results-${runs}`);
  await mkdir(resultsDir, { recursive: true });
  const resolved = resolveTaskRun({ name: 't', taskRef: { name: 'x' } }, task(text), {
    resultsDir,
    containerPaths: sandboxed,
    context: { taskRun: { name: `run-${runs}`, uid: `uid-${runs}` } },
  });
  const executor = new LocalExecutor({
    scratchRoot: join(dir, 'scratch'),
    ...(sandboxed ? { sandbox: { support, hostUser: SANDBOX_HOST_USER, netAllow: [] } } : {}),
  });
  const io = recordingIo();
  const outcome = await executor.runTask(resolved, io, neverAborted());
  return { outcome, io };
}

describe.each([
  ['in the sandbox', true],
  ['unsandboxed', false],
] as const)('step results %s', (_label, sandboxed) => {
  it.runIf(support.available || !sandboxed)(
    "passes a step's results to a StepAction's params, and lifts one into a task result",
    async () => {
      const { outcome, io } = await run(PASSING_RESULTS, sandboxed);
      expect(outcome.status, io.texts('system').join('\n')).toBe('succeeded');
      expect(io.texts('stdout', 'action-runner')).toEqual([
        'args: image1 image2 image3 image1 ar.com sha234',
      ]);
      expect(outcome.results).toEqual({ 'from-step': 'foo' });
    },
  );

  it.runIf(support.available || !sandboxed)(
    'gives a later step the exit code of one that failed and continued, and an empty credentials directory',
    async () => {
      const { outcome, io } = await run(EXIT_CODES, sandboxed);
      expect(outcome.status, io.texts('system').join('\n')).toBe('succeeded');
      expect(outcome.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
        ['exit-with-1', 'failed', 1],
        ['verify-step-path', 'succeeded', 0],
      ]);
      expect(io.texts('stdout', 'verify-step-path').map((t) => t.trim())).toEqual([
        'exit code 1',
        'by index 1',
        '0',
      ]);
    },
  );

  it.runIf(support.available || !sandboxed)(
    'fails the step that reads a result an earlier step did not write, naming both',
    async () => {
      const text = PASSING_RESULTS.replace("printf '%s' foo > $(step.results.result2.path)", 'true');
      const { outcome } = await run(text, sandboxed);
      expect(outcome.status).toBe('failed');
      expect(outcome.reason).toBe(
        'step "action-runner": step "inline-step" did not write its result "result2"',
      );
    },
  );
});

describe.runIf(support.available)('step results in the sandbox', () => {
  it("lets a step write only its own results: another step's are read-only", async () => {
    const text = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: own
spec:
  steps:
    - name: first
      image: alpine
      results: [{ name: r }]
      script: printf one > $(step.results.r.path)
    - name: second
      image: alpine
      results: [{ name: r }]
      script: |
        printf two > $(step.results.r.path)
        printf three > /tekton/steps/step-first/results/r 2>/dev/null || echo "read-only"
        cat /tekton/steps/step-first/results/r
`;
    const { outcome, io } = await run(text, true);
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout', 'second')).toEqual(['read-only', 'one']);
  });
});

describe.runIf(support.available)('scripts and entrypoints in host mode', () => {
  it("runs a script without #! with the host's sh (sh -e), and one with #! with its interpreter", async () => {
    const text = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: scripts
spec:
  steps:
    - name: noshebang
      image: ubuntu
      script: |
        readlink /proc/$$/exe
        false
        echo "not reached: sh -e stops at the first failure"
    - name: shebang
      image: ubuntu
      onError: continue
      script: |
        #!/bin/cat
        printed by cat, not run
`;
    const { outcome, io } = await run(text, true);
    expect(outcome.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
      ['noshebang', 'failed', 1],
      ['shebang', 'skipped', null],
    ]);
    const { realpathSync } = await import('node:fs');
    expect(io.texts('stdout', 'noshebang')).toEqual([realpathSync('/bin/sh')]);
    const second = await run(text.replace(/ {8}false\n/, ''), true);
    expect(second.io.texts('stdout', 'shebang')).toEqual(['#!/bin/cat', 'printed by cat, not run']);
  });

  it("accepts a step with only an image, and says plainly that host mode cannot run the image's entrypoint", async () => {
    const text = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: entrypoint
spec:
  steps:
    - name: server
      image: nginx
      args: ["-g", "daemon off;"]
`;
    const { outcome } = await run(text, true);
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toBe(
      `step "server" has neither command nor script, so it runs its image's entrypoint, which only a pulled image gives (SLIPWAY_STEP_IMAGES=pull); here steps run on the host's system: give the step a command or a script`,
    );
  });
});
