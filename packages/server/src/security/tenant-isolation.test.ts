import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import { FINISHED, insertPipeline, waitFor } from '../features/pipeline-runs/pipeline-runs.test-helper.js';
import { createSignedInUser, type TestUser } from '../test-support/identity.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { sandboxSupport, sandboxRequired } from '../test-support/sandbox.js';

/**
 * The attacks of the sandbox issue (#10), run as a tenant through the API: a developer of
 * organisation B runs pipelines whose steps go after the server's key, its database, its mail
 * outbox, organisation A's running step and workspace, the server's environment, and the
 * host's loopback services. Each must fail. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
const support = sandboxSupport();
const required = sandboxRequired;
if (!support.available) {
  if (required) throw new Error(`the tenant isolation suite needs a sandbox: ${support.reason}`);
  console.warn(`tenant isolation suite skipped: ${support.reason}`);
}

const VICTIM = (marker: string) => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: victim }
spec:
  workspaces: [{ name: src }]
  tasks:
    - name: hold
      workspaces: [{ name: ws, workspace: src }]
      taskSpec:
        workspaces: [{ name: ws }]
        steps:
          - name: hold
            image: alpine
            env: [{ name: VICTIM_TOKEN, value: "${marker}-env" }]
            script: |
              echo "${marker}-file" > $(workspaces.ws.path)/${marker}.txt
              echo holding
              sleep 20
`;

/** Each probe prints one line: `<name> SAFE` or `<name> LEAK …`. */
const ATTACK = (marker: string, dataDir: string, ports: number[]) => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: attack }
spec:
  tasks:
    - name: attack
      taskSpec:
        steps:
          - name: attack
            image: alpine
            script: |
              #!/bin/bash
              probe() { if eval "$2" >/dev/null 2>&1; then echo "$1 LEAK"; else echo "$1 SAFE"; fi; }
              probe master-key 'cat ${dataDir}/master.key'
              probe pgdata 'ls ${dataDir}/pgdata'
              probe outbox 'ls ${dataDir}/outbox'
              probe other-runs 'ls ${dataDir}/runs'
              probe data-dir 'ls ${dataDir}'
              probe victim-file 'test -n "$(find / -xdev -name "${marker}.txt" 2>/dev/null; find /workspace /tmp /tekton -name "${marker}.txt" 2>/dev/null)"'
              probe victim-environ 'cat /proc/[0-9]*/environ | tr "\\\\0" "\\\\n" | grep -q ${marker}-env'
              probe server-env 'env | grep -qE "DATABASE_URL|SLIPWAY_|SMTP_"'
              probe other-processes 'test $(ls /proc | grep -cE "^[0-9]+$") -gt 8'
              ${ports.map((p) => `probe port-${p} 'timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/${p}"'`).join('\n              ')}
              ${ports.map((p) => `probe gateway-port-${p} 'timeout 3 bash -c "exec 3<>/dev/tcp/10.0.2.2/${p}"'`).join('\n              ')}
              probe metadata 'timeout 3 bash -c "exec 3<>/dev/tcp/169.254.169.254/80"'
              probe host-root 'ls /root /home /work'
              probe shadow 'cat /etc/shadow'
              echo attack-done
`;

describe.runIf(support.available)('tenant isolation: a tenant attacks the server and another tenant', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  let server: string;
  let decoys: Server[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    a = await createSignedInUser(t.app, t.db.database);
    b = await createSignedInUser(t.app, t.db.database);
    // the server listens, as it does in production; the attack must not reach it
    server = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ports.push(Number(new URL(server).port));
    // stand-ins for PostgreSQL, Redis and NATS on loopback, whether or not the real ones run here
    for (const port of [5432, 6379, 4222]) ports.push(port);
    const decoy = createServer((s) => s.end('decoy\n'));
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    decoys = [decoy];
    ports.push((decoy.address() as { port: number }).port);
    // a mail in the outbox with a reset link, as a password reset would leave it
    writeFileSync(path.join(t.config.dataDir, 'outbox-probe.eml'), 'reset link');
  });
  afterAll(async () => {
    for (const d of decoys) d.close();
    await t?.close();
  });

  const start = async (user: TestUser, definition: string) => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, definition);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: user.headers,
      payload: { pipelineId },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const detail = async (user: TestUser, id: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/pipelineruns/${id}`, headers: user.headers })
    ).json() as PipelineRunDetail;
  const logs = async (user: TestUser, id: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/pipelineruns/${id}/logs`, headers: user.headers })).body;

  it('every attack of organisation B fails while organisation A has a step running', async () => {
    expect(existsSync(path.join(t.config.dataDir, 'master.key'))).toBe(true);
    const marker = `victim${Date.now()}`;
    const victim = await start(a, VICTIM(marker));
    // A's step is running (and its file written) before B attacks
    await waitFor(async () => (await logs(a, victim)).includes('holding'), 15_000);
    const attack = await start(b, ATTACK(marker, t.config.dataDir, ports));
    const done = await waitFor(async () => {
      const run = await detail(b, attack);
      return FINISHED.includes(run.status) && run;
    }, 60_000);
    const text = await logs(b, attack);
    expect(done.status, text).toBe('succeeded');
    expect(text).toContain('attack-done');
    const leaks = text.split('\n').filter((line) => line.includes(' LEAK'));
    expect(leaks, text).toEqual([]);
    const safe = text.split('\n').filter((line) => line.includes(' SAFE'));
    expect(safe.length).toBe(12 + 2 * ports.length);
    // the victim's run is not B's to see either
    const peek = await t.app.inject({
      method: 'GET',
      url: `/api/pipelineruns/${victim}`,
      headers: b.headers,
    });
    expect(peek.statusCode).toBe(404);
    await t.app.inject({ method: 'POST', url: `/api/pipelineruns/${victim}/abort`, headers: a.headers });
    // the server's own files are as they were
    expect(readFileSync(path.join(t.config.dataDir, 'outbox-probe.eml'), 'utf8')).toBe('reset link');
  });
});

describe('unsandboxed mode is for a single organisation', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('runs local steps for one organisation and refuses them once a second one exists', async () => {
    t = await createTestApp({ SLIPWAY_LOCAL_EXECUTOR: 'unsandboxed' });
    const only = await createSignedInUser(t.app, t.db.database);
    const ECHO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: echo }
spec:
  tasks:
    - name: echo
      taskSpec: { steps: [{ name: echo, image: alpine, script: 'echo on-the-host' }] }
`;
    const run = async (user: TestUser) => {
      const pipelineId = await insertPipeline(t.db.database, user.workspaceId, ECHO);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/pipelineruns',
        headers: user.headers,
        payload: { pipelineId },
      });
      expect(res.statusCode, res.body).toBe(201);
      return waitFor(async () => {
        const found = (
          await t.app.inject({
            method: 'GET',
            url: `/api/pipelineruns/${res.json().id}`,
            headers: user.headers,
          })
        ).json() as PipelineRunDetail;
        return FINISHED.includes(found.status) && found;
      }, 30_000);
    };
    expect((await run(only)).status).toBe('succeeded');
    const second = await createSignedInUser(t.app, t.db.database);
    // the organisation count is read at most every 5 seconds
    await new Promise((resolve) => setTimeout(resolve, 5100));
    const refused = await run(second);
    expect(refused.status).toBe('failed');
    expect(refused.reason).toContain('SLIPWAY_LOCAL_EXECUTOR=unsandboxed');
    expect(refused.reason).toContain('2 organisations');
  });
});
