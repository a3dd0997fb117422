import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalExecutor } from './local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from './local-executor.test-helper.js';

describe('LocalExecutor: steps, output, env, results', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let executor: LocalExecutor;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch') });
  });
  afterEach(() => cleanup());

  it('runs steps in order, announces each one and reports each outcome', async () => {
    const io = recordingIo();
    const run = taskRun(dir, [
      step('first', { image: 'node:20', command: ['echo', 'one'] }),
      step('second', { script: 'echo two' }),
    ]);
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome).toMatchObject({ status: 'succeeded', reason: '', attempts: 1, results: {} });
    expect(outcome.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
      ['first', 'succeeded', 0],
      ['second', 'succeeded', 0],
    ]);
    expect(io.lines.map((l) => [l.step, l.stream, l.text])).toEqual([
      ['first', 'system', 'Running step "first" (image node:20, run locally on the host)'],
      ['first', 'stdout', 'one'],
      ['second', 'system', 'Running step "second" (image alpine:3, run locally on the host)'],
      ['second', 'stdout', 'two'],
    ]);
    expect(io.lines.map((l) => l.seq)).toEqual([1, 2, 3, 4]);
    expect(io.lines.every((l) => l.at instanceof Date && l.attempt === 1)).toBe(true);
    expect(io.states).toEqual([
      ['first', 'pending'],
      ['second', 'pending'],
      ['first', 'running'],
      ['first', 'succeeded'],
      ['second', 'running'],
      ['second', 'succeeded'],
    ]);
    const [first] = outcome.steps;
    expect(first!.finishedAt!.getTime()).toBeGreaterThanOrEqual(first!.startedAt!.getTime());
  });

  it('refuses a task with a service account: the server has no Kubernetes identity to give it', async () => {
    const io = recordingIo();
    const run = taskRun(dir, [step('first', { script: 'echo ran > ran.txt' })], {
      serviceAccountName: 'build-bot',
    });
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(
      /^service account "build-bot" cannot be honoured here: the task runs on Slipway's own executor \(on the server, not in a cluster\)/,
    );
    expect(outcome.steps.map((s) => s.status)).toEqual(['skipped']);
    expect(io.lines.map((l) => l.stream)).toEqual(['system']);
  });

  it("refuses a task with a pod template: it runs in Slipway's sandbox, not in a pod", async () => {
    const io = recordingIo();
    const run = taskRun(dir, [step('first', { script: 'echo ran > ran.txt' })], {
      podTemplate: { nodeSelector: { 'kubernetes.io/os': 'windows' } },
    });
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(
      /^a pod template cannot be honoured here: the task runs in Slipway's own sandbox on the server, not in a Kubernetes pod/,
    );
    expect(outcome.steps.map((s) => s.status)).toEqual(['skipped']);
    expect(io.lines.map((l) => l.stream)).toEqual(['system']);
  });

  it('tags stdout and stderr and keeps their order', async () => {
    const io = recordingIo();
    const script =
      'echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; echo out2; sleep 0.05; printf "err2" >&2';
    await executor.runTask(taskRun(dir, [step('mix', { script })]), io, neverAborted());
    const output = io.lines.filter((l) => l.stream !== 'system').map((l) => `${l.stream}:${l.text}`);
    expect(output).toEqual(['stdout:out1', 'stderr:err1', 'stdout:out2', 'stderr:err2']);
    const seqs = io.lines.map((l) => l.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('keeps ANSI colours and carriage returns, and flushes a last line without newline', async () => {
    const io = recordingIo();
    const command = ['printf', '\\033[32mok\\033[0m\\r\\nhalf'];
    await executor.runTask(taskRun(dir, [step('colour', { command })]), io, neverAborted());
    expect(io.texts('stdout')).toEqual(['\x1b[32mok\x1b[0m\r', 'half']);
  });

  it('splits a very long line into 64 KiB pieces', async () => {
    const io = recordingIo();
    const script = "head -c 150000 /dev/zero | tr '\\0' x; echo; echo after";
    await executor.runTask(taskRun(dir, [step('long', { script })]), io, neverAborted());
    expect(io.texts('stdout').map((t) => t.length)).toEqual([65536, 65536, 18928, 5]);
  });

  it('gives a minimal env plus the step env and secret env, and masks secret values in every line', async () => {
    const io = recordingIo({ 'registry/token': 'tok-SECRET-42', 'db/password': 'pa55word' });
    const script = [
      'echo "greeting=$GREETING home=$HOME"',
      'echo "token is $TOKEN and again:$TOKEN"',
      'echo "pw=$DB_PW" >&2',
      'echo "leak=${SERVER_ONLY:-unset}"',
      'echo "path-set=${PATH:+yes} lang=$LANG"',
    ].join('\n');
    const run = taskRun(dir, [
      step('env', {
        script,
        env: { GREETING: 'hello' },
        secretEnv: [
          { name: 'TOKEN', secret: 'registry', key: 'token' },
          { name: 'DB_PW', secret: 'db', key: 'password' },
        ],
      }),
    ]);
    process.env.SERVER_ONLY = 'server-secret';
    try {
      const outcome = await executor.runTask(run, io, neverAborted());
      expect(outcome.status).toBe('succeeded');
    } finally {
      delete process.env.SERVER_ONLY;
    }
    const out = io.texts('stdout');
    expect(out[0]).toMatch(/^greeting=hello home=.*scratch/);
    expect(out.slice(1)).toEqual(['token is *** and again:***', 'leak=unset', 'path-set=yes lang=C.UTF-8']);
    expect(io.texts('stderr')).toEqual(['pw=***']);
    expect(io.lines.some((l) => l.text.includes('SECRET') || l.text.includes('pa55'))).toBe(false);
  });

  it('fails the step with a clear reason when a secret cannot be read', async () => {
    const io = recordingIo();
    const run = taskRun(dir, [
      step('s', { command: ['true'], secretEnv: [{ name: 'X', secret: 'gone', key: 'k' }] }),
    ]);
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toBe(
      'secret "gone" (key "k") for X could not be read: no key "k" in secret "gone"',
    );
  });

  it('reads declared results, trimming one newline; a missing result file is simply absent', async () => {
    const io = recordingIo();
    const resultsDir = join(dir, 'results');
    const script = `printf 'sha256:abc\\n' > ${resultsDir}/digest; echo v1.2 > ${resultsDir}/version`;
    const run = taskRun(dir, [step('write', { script })], { results: ['digest', 'version', 'never'] });
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome).toMatchObject({
      status: 'succeeded',
      results: { digest: 'sha256:abc', version: 'v1.2' },
    });
    expect(outcome.results).not.toHaveProperty('never');
  });

  it('fails the task when a result is larger than 4 KiB', async () => {
    const run = taskRun(
      dir,
      [step('big', { script: `head -c 5000 /dev/zero > ${join(dir, 'results')}/blob` })],
      {
        results: ['blob'],
      },
    );
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome).toMatchObject({
      status: 'failed',
      reason: 'result "blob" is 5000 bytes, more than the limit of 4096 bytes',
    });
  });

  it('stops at a failing step and skips the rest with a reason', async () => {
    const io = recordingIo();
    const run = taskRun(dir, [step('build', { command: ['false'] }), step('push', { command: ['true'] })]);
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome).toMatchObject({ status: 'failed', reason: 'step "build" exited with code 1' });
    expect(outcome.steps[1]).toMatchObject({
      status: 'skipped',
      reason: 'skipped: step "build" failed',
      startedAt: null,
    });
    expect(io.states).toContainEqual(['push', 'skipped']);
  });

  it('goes on after a failing step with onError continue', async () => {
    const run = taskRun(dir, [
      step('lint', { script: 'exit 3', onError: 'continue' }),
      step('test', { command: ['echo', 'still here'] }),
    ]);
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome.status).toBe('succeeded');
    expect(outcome.steps.map((s) => [s.status, s.exitCode])).toEqual([
      ['failed', 3],
      ['succeeded', 0],
    ]);
  });

  it('runs a script without a shebang with sh -e, as Tekton does', async () => {
    const io = recordingIo();
    const outcome = await executor.runTask(
      taskRun(dir, [step('s', { script: 'false\necho not reached' })]),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('failed');
    expect(io.texts('stdout')).toEqual([]);
  });

  it('runs a script with a shebang directly and passes args to it', async () => {
    const io = recordingIo();
    const script = '\n  #!/bin/sh\necho "args: $1 $2 shell: $0" | sed "s|/.*/|/|"';
    await executor.runTask(taskRun(dir, [step('s', { script, args: ['a', 'b'] })]), io, neverAborted());
    expect(io.texts('stdout')).toEqual(['args: a b shell: /0-s']);
  });

  it('names a command that does not exist on this host', async () => {
    const run = taskRun(dir, [step('build', { command: ['kaniko', '--help'] })]);
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome).toMatchObject({ status: 'failed', reason: 'command "kaniko" not found on this host' });
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', exitCode: null });
  });

  it('names a missing script interpreter', async () => {
    const run = taskRun(dir, [step('py', { script: '#!/usr/bin/python9\nprint(1)' })]);
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome.reason).toBe('script interpreter "/usr/bin/python9" not found on this host');
  });

  it('runs in the first workspace, and workingDir is relative to it (created when missing)', async () => {
    const source = join(dir, 'ws-source');
    await mkdir(source, { recursive: true });
    await writeFile(join(source, 'marker'), 'here');
    const io = recordingIo();
    const run = taskRun(
      dir,
      [
        step('root', { command: ['cat', 'marker'] }),
        step('sub', { command: ['pwd'], workingDir: 'app/src' }),
      ],
      {
        workspaces: { source, cache: join(dir, 'ws-cache') },
      },
    );
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome.status).toBe('succeeded');
    expect(io.texts('stdout')).toEqual(['here', join(source, 'app/src')]);
  });

  it('runs in the scratch dir when there is no workspace; the scratch dir is removed afterwards', async () => {
    const io = recordingIo();
    await executor.runTask(
      taskRun(dir, [step('where', { script: 'pwd; echo "$HOME"' })]),
      io,
      neverAborted(),
    );
    const [cwd, home] = io.texts('stdout');
    expect(cwd).toBe(home);
    expect(cwd).toContain(join(dir, 'scratch'));
    await expect(stat(cwd!)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('retries a failed task as a fresh attempt and says so in the log', async () => {
    const io = recordingIo();
    const counter = join(dir, 'count');
    const script = `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; echo "attempt $n"; [ $n -ge 3 ]`;
    const outcome = await executor.runTask(
      taskRun(dir, [step('flaky', { script })], { retries: 2 }),
      io,
      neverAborted(),
    );
    expect(outcome).toMatchObject({ status: 'succeeded', attempts: 3 });
    const system = io.texts('system');
    expect(system.filter((t) => t.startsWith('Retry'))).toEqual([
      'Retry 1 of 2 (the previous attempt: step "flaky" exited with code 1)',
      'Retry 2 of 2 (the previous attempt: step "flaky" exited with code 1)',
    ]);
    expect(io.lines.filter((l) => l.stream === 'stdout').map((l) => [l.attempt, l.text])).toEqual([
      [1, 'attempt 1'],
      [2, 'attempt 2'],
      [3, 'attempt 3'],
    ]);
  });

  it('gives up after the last retry with the last attempt as the outcome', async () => {
    const outcome = await executor.runTask(
      taskRun(dir, [step('f', { command: ['false'] })], { retries: 1 }),
      recordingIo(),
      neverAborted(),
    );
    expect(outcome).toMatchObject({ status: 'failed', attempts: 2, reason: 'step "f" exited with code 1' });
  });
});
