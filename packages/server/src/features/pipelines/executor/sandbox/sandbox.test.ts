import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalExecutor } from '../local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from '../local-executor.test-helper.js';
import { parseNetAllow } from './network-policy.js';
import type { SandboxOptions } from './task-sandbox.js';
import { sandboxSupport, SANDBOX_HOST_USER, sandboxRequired } from '../../../../test-support/sandbox.js';

const HOST_USER = SANDBOX_HOST_USER;
const required = sandboxRequired;

const support = sandboxSupport();
let dir: string;
let cleanup: () => Promise<void>;
let listener: Server;
let listenerPort = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  // bwrap resolves what it binds as the sandbox's host user: the directories above must let it pass
  await chmod(dir, 0o711);
  if (!support.available) {
    if (required) throw new Error(`no sandbox on this machine: ${support.reason}`);
    console.warn(`sandbox tests skipped: ${support.reason}`);
  }
  listener = createServer((socket) => socket.end('hello from the host\n'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerPort = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  listener?.close();
  await cleanup?.();
});

function executor(extra: Partial<SandboxOptions> = {}) {
  return new LocalExecutor({
    scratchRoot: join(dir, 'scratch'),
    sandbox: { support, hostUser: HOST_USER, netAllow: [], ...extra },
  });
}

async function workspace(name: string): Promise<string> {
  const path = join(dir, 'runs', name);
  await mkdir(path, { recursive: true });
  return path;
}

describe.runIf(support.available)('the sandbox', () => {
  it('runs steps at Tekton paths, with results, home and exit codes, as an unprivileged host user', async () => {
    const source = await workspace('source');
    const resultsDir = join(dir, 'results-1');
    await mkdir(resultsDir, { recursive: true });
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [
          step('write', {
            script:
              'echo built > /workspace/source/out.txt; pwd; echo "home=$HOME"; id -u; printf done > /tekton/results/status',
          }),
          step('read', {
            script: 'cat /tekton/steps/step-write/exitCode; echo; cat /workspace/source/out.txt',
          }),
        ],
        {
          resultsDir,
          results: ['status'],
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
    expect(io.texts('stdout', 'write')).toEqual(['/workspace', 'home=/tekton/home', '0']);
    expect(io.texts('stdout', 'read')).toEqual(['0', 'built']);
    expect(outcome.results).toEqual({ status: 'done' });
    const written = await stat(join(source, 'out.txt'));
    if (support.root) expect(written.uid).toBe(HOST_USER.uid);
  });

  it('shows no host files, no other processes and none of the server environment', async () => {
    const io = recordingIo();
    process.env.SLIPWAY_SANDBOX_CANARY = 'server-secret';
    const outcome = await executor().runTask(
      taskRun(dir, [
        step('look', {
          script: [
            `test ! -e ${JSON.stringify(dir)} && echo no-host-dir`,
            'test ! -e /work && test ! -e /root/.bashrc && echo no-home',
            'ls /proc | grep -E "^[0-9]+$" | wc -l',
            'env | grep -c SLIPWAY_SANDBOX_CANARY || true',
            'cat /etc/shadow >/dev/null 2>&1 || echo no-shadow',
          ].join('\n'),
        }),
      ]),
      io,
      neverAborted(),
    );
    delete process.env.SLIPWAY_SANDBOX_CANARY;
    expect(outcome.status).toBe('succeeded');
    const out = io.texts('stdout');
    expect(out).toContain('no-host-dir');
    expect(out).toContain('no-home');
    // the shell, ls, grep and wc: a handful of processes of its own, none of the host's
    expect(Number(out[2])).toBeLessThan(8);
    expect(out[3]).toBe('0');
    if (support.root) expect(out).toContain('no-shadow');
  });

  it('enforces read-only workspaces, even for root inside', async () => {
    const config = await workspace('config');
    await writeFile(join(config, 'settings'), 'x=1\n');
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(
        dir,
        [
          step('try', {
            script: [
              'cat /workspace/config/settings',
              'echo changed > /workspace/config/settings 2>/dev/null && echo WROTE',
              'mount -o remount,bind,rw /workspace/config 2>/dev/null && echo REMOUNTED',
              'umount /workspace/config 2>/dev/null && echo UNMOUNTED',
              'true',
            ].join('\n'),
          }),
        ],
        {
          workspaces: { config: '/workspace/config' },
          mounts: [
            { name: 'config', hostPath: config, base: config, path: '/workspace/config', readOnly: true },
          ],
        },
      ),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('succeeded');
    expect(io.texts('stdout')).toEqual(['x=1']);
    expect(await readFile(join(config, 'settings'), 'utf8')).toBe('x=1\n');
  });

  it('runs a step as its securityContext.runAsUser', async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(dir, [step('as', { script: 'id -u; id -g', runAsUser: 1001, runAsGroup: 1002 })]),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('succeeded');
    expect(io.texts('stdout')).toEqual(['1001', '1002']);
  });

  it.runIf(support.network)("keeps the host's loopback and private networks out of reach", async () => {
    const io = recordingIo();
    const probe = (target: string) =>
      `if timeout 3 bash -c 'exec 3<>/dev/tcp/${target}' 2>/dev/null; then echo "open ${target}"; else echo "closed ${target}"; fi`;
    const outcome = await executor().runTask(
      taskRun(dir, [
        step('net', {
          script: [
            probe(`127.0.0.1/${listenerPort}`),
            probe(`10.0.2.2/${listenerPort}`),
            probe('127.0.0.1/5432'),
            probe('10.0.2.2/5432'),
            probe('169.254.169.254/80'),
            'ip -4 addr show tap0 | grep -c inet',
          ].join('\n'),
        }),
      ]),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout')).toEqual([
      `closed 127.0.0.1/${listenerPort}`,
      `closed 10.0.2.2/${listenerPort}`,
      'closed 127.0.0.1/5432',
      'closed 10.0.2.2/5432',
      'closed 169.254.169.254/80',
      '1',
    ]);
  });

  it.runIf(support.network)('reaches a loopback port the operator allowed, and only that one', async () => {
    const io = recordingIo();
    const outcome = await executor({ netAllow: parseNetAllow(`127.0.0.1:${listenerPort}`) }).runTask(
      taskRun(dir, [
        step('net', {
          script: [
            `timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/${listenerPort}; cat <&3'`,
            "timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/5432' 2>/dev/null && echo open-5432 || echo closed-5432",
          ].join('\n'),
        }),
      ]),
      io,
      neverAborted(),
    );
    expect(outcome.status, io.texts('stderr').join('\n')).toBe('succeeded');
    expect(io.texts('stdout')).toEqual(['hello from the host', 'closed-5432']);
  });

  it('gives a task that asks for no network only its loopback', async () => {
    const io = recordingIo();
    const outcome = await executor().runTask(
      taskRun(dir, [step('none', { script: 'ls /sys/class/net 2>/dev/null || ip -o link | wc -l' })], {
        noNetwork: true,
      }),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('succeeded');
    expect(io.texts('stdout').join(' ')).not.toContain('tap0');
  });
});

describe.runIf(support.available)('the sandbox against paths a step plants', () => {
  it('refuses a subPath leaving its workspace, and a workingDir through a link a step made', async () => {
    const ws = await workspace('planted');
    const outside = await workspace('outside');
    await writeFile(join(outside, 'secret'), 'server-only\n');
    const escape = await executor().runTask(
      taskRun(dir, [step('look', { script: 'ls /workspace/src' })], {
        workspaces: { src: '/workspace/src' },
        mounts: [
          {
            name: 'src',
            hostPath: join(ws, '..', 'outside'),
            base: ws,
            path: '/workspace/src',
            readOnly: false,
          },
        ],
      }),
      recordingIo(),
      neverAborted(),
    );
    expect(escape.status).toBe('failed');
    expect(escape.reason).toContain('lies outside its workspace');

    const io = recordingIo();
    const planted = await executor().runTask(
      taskRun(
        dir,
        [
          step('plant', { script: `ln -s / /workspace/src/link` }),
          step('use', { script: 'pwd', workingDir: '/workspace/src/link/etc/slipway-planted' }),
        ],
        {
          workspaces: { src: '/workspace/src' },
          mounts: [{ name: 'src', hostPath: ws, base: ws, path: '/workspace/src', readOnly: false }],
        },
      ),
      io,
      neverAborted(),
    );
    expect(planted.status).toBe('failed');
    expect(planted.reason).toContain('passes through a symbolic link (link)');
    expect(existsSync('/etc/slipway-planted')).toBe(false);
  });
});
