import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunDirectory } from '../../../pipeline-runs/run-directory.js';
import { checkDefinition } from '../../definition/check-definition.js';
import { resolveTaskRun } from '../../definition/resolve-task-run.js';
import type { ResolvedSidecar, ResolvedVolume } from '../../definition/resolve-task-run.js';
import { LocalExecutor } from '../local-executor.js';
import { limitsSummary } from '../local-executor-factory.js';
import { neverAborted, recordingIo, step, taskRun, tempDir, waitFor } from '../local-executor.test-helper.js';
import type { SandboxOptions } from './task-sandbox.js';
import { sandboxSupport, SANDBOX_HOST_USER, sandboxRequired } from '../../../../test-support/sandbox.js';

const HOST_USER = SANDBOX_HOST_USER;
const required = sandboxRequired;
const support = sandboxSupport();
// the sidecar's server: the host's python3 (the host's system is each step's root here)
const python = ['/usr/bin/python3', '/bin/python3'].find((p) => {
  try {
    readFileSync(p);
    return true;
  } catch {
    return false;
  }
});
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await chmod(dir, 0o711);
  if (!support.available) {
    if (required) throw new Error(`no sandbox on this machine: ${support.reason}`);
    console.warn(`sandbox volume and sidecar tests skipped: ${support.reason}`);
  }
});

afterAll(async () => {
  await cleanup?.();
});

function executor(extra: Partial<SandboxOptions> = {}) {
  return new LocalExecutor({
    scratchRoot: join(dir, 'scratch'),
    sandbox: { support, hostUser: HOST_USER, netAllow: [], ...extra },
  });
}

function sidecar(name: string, fields: Partial<ResolvedSidecar>): ResolvedSidecar {
  return { ...step(name), ...fields };
}

/** Processes on this host whose command line holds `marker`. */
function processesWith(marker: string): number {
  let found = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) found += 1;
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe('limits the host can and cannot give', () => {
  it('says plainly when memory and CPU limits are not available', () => {
    const summary = limitsSummary(support, { maxProcesses: 512, images: 'host' });
    if (!support.cgroup.limits)
      expect(summary).toContain('memory and CPU limits: not available (cgroup v2 not delegated');
    if (support.limiter.prlimit) expect(summary).toContain('at most 512 processes per step');
  });
});

describe('volumeMounts and sidecars without a sandbox', () => {
  it('fail the task, naming the step and the mount, or the sidecar', async () => {
    const local = new LocalExecutor({ scratchRoot: join(tmpdir(), 'slipway-unsandboxed-volumes') });
    const io = recordingIo();
    const outcome = await local.runTask(
      taskRun(
        tmpdir(),
        [step('use', { script: 'true', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] })],
        {
          volumes: [{ name: 'scratch', kind: 'emptyDir' }],
        },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toContain('step "use" mounts volume "scratch" at /scratch');
    const withSidecar = await local.runTask(
      taskRun(tmpdir(), [step('use', { script: 'true' })], {
        sidecars: [sidecar('db', { script: 'sleep 1' })],
      }),
      recordingIo(),
      neverAborted(),
    );
    expect(withSidecar.reason).toContain('sidecar "db" needs the sandbox');
  });
});

describe.runIf(support.available)('task volumes in the sandbox', () => {
  it("shares an emptyDir between the steps of an attempt and reports the writable workspaces' sizes", async () => {
    const source = join(dir, 'runs', 'sized');
    await mkdir(source, { recursive: true });
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [
          step('write', {
            script: 'echo shared > /cache/note; head -c 2048 /dev/zero > /workspace/source/blob',
            volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
          }),
          step('read', {
            script: 'cat /data/note; echo again >> /data/note 2>/dev/null || echo read-only',
            volumeMounts: [{ name: 'cache', mountPath: '/data', readOnly: true }],
          }),
        ],
        {
          volumes: [{ name: 'cache', kind: 'emptyDir' }],
          workspaces: { source: '/workspace/source' },
          mounts: [
            { name: 'source', hostPath: source, base: source, path: '/workspace/source', readOnly: false },
          ],
        },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout', 'read')).toEqual(['shared', 'read-only']);
    expect(io.texts('system')).toContain('workspace "source" holds 2.0 KiB');
  });

  it('binds secret and config map volumes read-only, their files as the run directory wrote them', async () => {
    const runDir = new RunDirectory(dir, 'run-volumes');
    const volumes: ResolvedVolume[] = [
      { name: 'creds', kind: 'secret', source: 'deploy', items: [{ key: 'token', path: 'auth/token' }] },
      { name: 'settings', kind: 'configMap', source: 'app' },
      { name: 'absent', kind: 'configMap', source: 'nothing', optional: true },
    ];
    const written = await runDir.writeVolumes(
      'use-volumes',
      volumes,
      'ws',
      {
        value: async () => 's3cr3t-token',
        values: async (_ws, name) => (name === 'deploy' ? { token: 's3cr3t-token', other: 'x' } : null),
      },
      { data: async (_ws, name) => (name === 'app' ? { 'app.conf': 'level=debug\n' } : null) },
    );
    expect(written.secretValues).toEqual(['s3cr3t-token']);
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [
          step('use', {
            script: [
              'ls /creds /creds/auth /settings /absent',
              'stat -c "%a %n" /creds/auth/token /settings/app.conf',
              'cat /creds/auth/token; echo; cat /settings/app.conf',
              'echo x > /settings/app.conf 2>/dev/null || echo settings-read-only',
              'echo x > /creds/new 2>/dev/null || echo creds-read-only',
            ].join('\n'),
            volumeMounts: [
              { name: 'creds', mountPath: '/creds' },
              { name: 'settings', mountPath: '/settings', readOnly: false },
              { name: 'absent', mountPath: '/absent' },
            ],
          }),
        ],
        { volumes: written.volumes },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout')).toEqual([
      '/absent:',
      '',
      '/creds:',
      'auth',
      '',
      '/creds/auth:',
      'token',
      '',
      '/settings:',
      'app.conf',
      '600 /creds/auth/token',
      '644 /settings/app.conf',
      's3cr3t-token',
      'level=debug',
      'settings-read-only',
      'creds-read-only',
    ]);
  });

  it('refuses a volume of a kind it cannot provide, naming the volume and the kind', async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [step('use', { script: 'true', volumeMounts: [{ name: 'cache', mountPath: '/cache' }] })],
        {
          volumes: [{ name: 'cache', kind: 'hostPath' }],
        },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toContain('volume "cache" is a hostPath, which the local executor cannot provide');
  });

  it("contains a fork bomb within its step's process limit while a step of another sandbox runs", async () => {
    const limited = executor({ maxProcesses: 64 });
    const bombIo = recordingIo();
    const otherIo = recordingIo();
    const [bomb, other] = await Promise.all([
      limited.runTask(
        taskRun(dir, [
          step('bomb', {
            script: [
              `(timeout 6 bash -c 'b(){ b|b& }; b' >/dev/null 2>&1 &)`,
              'sleep 3',
              // counted without a fork (the limit may be reached): the shell's own glob
              'set -- /proc/[0-9]*; echo $#',
            ].join('\n'),
          }),
        ]),
        bombIo,
        neverAborted(),
      ),
      new Promise((resolve) => setTimeout(resolve, 1500)).then(() =>
        limited.runTask(
          taskRun(dir, [
            step('other', { script: 'for i in 1 2 3 4 5 6 7 8; do /bin/true & done; wait; echo fine' }),
          ]),
          otherIo,
          neverAborted(),
        ),
      ),
    ]);
    expect(other.status, otherIo.texts('stderr').join('\n')).toBe('succeeded');
    expect(otherIo.texts('stdout')).toEqual(['fine']);
    expect(bomb.status).toBe('succeeded');
    // the step's own processes (its shell, bwrap's init) and the bomb's: never past the limit
    const counted = Number(bombIo.texts('stdout', 'bomb').at(-1));
    expect(counted).toBeLessThanOrEqual(64);
    expect(counted).toBeGreaterThan(32); // the bomb did run up to the limit
  }, 30_000);
});

describe.runIf(support.available && support.network)('sidecars in the sandbox', () => {
  it.runIf(python)(
    'serves TCP on localhost to the steps once ready, logs under its name, and is stopped at the end',
    async () => {
      const io = recordingIo();
      const marker = `slipway-sidecar-${process.pid}`;
      const outcome = await executor().runTask(
        taskRun(
          dir,
          [
            step('fetch', {
              // one attempt, no retry: the step starts only once the server accepts
              script: `#!/bin/bash\nexec 3<>/dev/tcp/127.0.0.1/8765\nprintf 'GET /index.html HTTP/1.0\\r\\n\\r\\n' >&3\ntail -n 1 <&3`,
            }),
          ],
          {
            sidecars: [
              sidecar('server', {
                script: [
                  'cd /tmp && echo "hello from the sidecar" > index.html',
                  'sleep 1.5 # not ready at once: the steps wait',
                  `exec ${python} -m http.server 8765 --bind 127.0.0.1 # ${marker}`,
                ].join('\n'),
                readiness: { tcpPort: 8765 },
              }),
            ],
          },
        ),
        io,
        neverAborted(),
      );
      expect(outcome.status, io.texts('stderr').join('\n') + io.texts('system').join('\n')).toBe('succeeded');
      expect(io.texts('stdout', 'fetch')).toEqual(['hello from the sidecar']);
      expect(io.texts('system', 'server')).toContain('sidecar "server" is ready');
      expect(io.texts('stderr', 'server').join('\n')).toContain('"GET /index.html HTTP/1.0" 200');
      expect(await waitFor(() => processesWith(marker) === 0, 5000)).toBe(true);
    },
    30_000,
  );

  it('waits for an exec readiness probe, sharing an emptyDir with the steps', async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [
          step('check', {
            script: 'cat /shared/ready',
            volumeMounts: [{ name: 'shared', mountPath: '/shared' }],
          }),
        ],
        {
          volumes: [{ name: 'shared', kind: 'emptyDir' }],
          sidecars: [
            sidecar('preparer', {
              script: 'echo preparing; sleep 1; echo ok > /shared/ready; exec sleep 600',
              volumeMounts: [{ name: 'shared', mountPath: '/shared' }],
              readiness: { exec: ['test', '-f', '/shared/ready'] },
            }),
          ],
        },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n') + io.texts('system').join('\n')).toBe('succeeded');
    expect(io.texts('stdout', 'check')).toEqual(['ok']);
    expect(io.texts('stdout', 'preparer')).toEqual(['preparing']);
  }, 30_000);

  it('waits for a probe that takes longer than 5 s when its timeoutSeconds allows (examples/v1/taskruns/sidecar-ready.yaml)', async () => {
    const parsed = checkDefinition(`apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: sidecar-ready
spec:
  sidecars:
    - name: slow-sidecar
      image: ubuntu
      command: ['sleep', 'infinity']
      readinessProbe:
        exec:
          command: [sh, -c, sleep 6 && touch /shared/ready]
        timeoutSeconds: 10
      volumeMounts:
        - name: shared
          mountPath: /shared
  steps:
    - name: check-ready
      image: ubuntu
      script: cat /shared/ready && echo ready
      volumeMounts:
        - name: shared
          mountPath: /shared
  volumes:
    - name: shared
      emptyDir: {}
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const run = resolveTaskRun(
      { name: 'sidecar-ready', taskRef: { name: 'sidecar-ready' } },
      parsed.tasks[0]!,
      {
        resultsDir: join(dir, 'results-sidecar-ready'),
        containerPaths: true,
      },
    );
    expect(run.sidecars![0]!.readiness).toEqual({
      exec: ['sh', '-c', 'sleep 6 && touch /shared/ready'],
      timeoutMs: 10_000,
    });
    const io = recordingIo();
    const outcome = await executor().runTask(run, io, neverAborted());
    expect(outcome.status, io.texts('system').join('\n')).toBe('succeeded');
    expect(io.texts('stdout', 'check-ready')).toEqual(['ready']);
  }, 30_000);

  it("records a sidecar that ends before it is ready and runs the steps, as Tekton's SidecarsReady does", async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(dir, [step('still', { script: 'echo ran' })], {
        sidecars: [sidecar('broken', { script: 'echo giving up >&2; exit 3', readiness: { tcpPort: 9 } })],
      }),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('succeeded');
    expect(io.texts('stdout', 'still')).toEqual(['ran']);
    expect(io.texts('stderr', 'broken')).toEqual(['giving up']);
    expect(io.texts('system', 'broken')).toContain(
      'sidecar "broken" exited with code 3 (the steps go on without it, as in Tekton)',
    );
  }, 30_000);

  it("runs a sidecar's script (no #!: sh -c) before the steps and stops it after the last one", async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [
          step('first', {
            script: 'sleep 0.3; cat /shared/message',
            volumeMounts: [{ name: 'shared', mountPath: '/shared' }],
          }),
          step('last', { script: 'echo last' }),
        ],
        {
          volumes: [{ name: 'shared', kind: 'emptyDir' }],
          sidecars: [
            sidecar('slow-sidecar', {
              // examples/v1/taskruns/sidecar-ready-script.yaml, kept running to be stopped
              script: 'echo "hello from sidecar" > /shared/message; echo "$0"; exec sleep 601',
              volumeMounts: [{ name: 'shared', mountPath: '/shared' }],
            }),
          ],
        },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n') + io.texts('system').join('\n')).toBe('succeeded');
    expect(io.texts('stdout', 'first')).toEqual(['hello from sidecar']);
    const order = io.lines.map((l) => `${l.step}:${l.text}`);
    expect(order.indexOf('slow-sidecar:sidecar "slow-sidecar" is ready')).toBeLessThan(
      order.indexOf('first:hello from sidecar'),
    );
    // run as `sh -e -c <script> <name>`, and stopped once the last step has ended
    expect(io.texts('stdout', 'slow-sidecar')).toEqual(['slow-sidecar']);
    expect(order.indexOf('slow-sidecar:sidecar "slow-sidecar" is ready')).toBeLessThan(
      order.indexOf('last:last'),
    );
    expect(processesWith('sleep\u0000601')).toBe(0);
  }, 30_000);

  it('refuses sidecars on a task that asks for no network', async () => {
    const outcome = await executor().runTask(
      taskRun(dir, [step('use', { script: 'true' })], {
        noNetwork: true,
        sidecars: [sidecar('db', { script: 'sleep 1' })],
      }),
      recordingIo(),
      neverAborted(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toContain("sidecars need the task's own network namespace");
  });
});
