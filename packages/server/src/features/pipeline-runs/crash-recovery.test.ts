import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import { openDatabase } from '../../platform/database/database.js';
import { migrate } from '../../platform/database/migrate.js';
import { AuthStore } from '../auth/auth-store.js';
import { hashPassword } from '../auth/passwords.js';
import { FINISHED, waitFor } from './pipeline-runs.test-helper.js';
import { sandboxSupport } from '../../test-support/sandbox.js';

const MAIN = fileURLToPath(new URL('../../main.ts', import.meta.url));
const support = sandboxSupport();
// the embedded database: a restarted process takes the runs over at once (PostgreSQL waits out
// the dead process's leases, 30 s)
const runnable = support.available && !process.env.DATABASE_URL;

const LINES = 60;
/** Two tasks in a row, each printing numbered lines for about three seconds. */
const COUNTING = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: counting }
spec:
  tasks:
    - name: first
      taskSpec:
        steps:
          - name: count
            image: alpine
            script: |
              for i in $(seq 1 ${LINES}); do echo "first line $i"; sleep 0.05; done
          - name: after
            image: alpine
            script: echo "first after $(cat /tekton/steps/step-count/exitCode)"
    - name: second
      runAfter: [first]
      taskSpec:
        steps:
          - name: count
            image: alpine
            script: |
              for i in $(seq 1 ${LINES}); do echo "second line $i"; sleep 0.02; done
`;

function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      SLIPWAY_DATA_DIR: dataDir,
      SLIPWAY_STEP_IMAGES: 'host',
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Slipway is serving at (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(timer);
      reject(new Error(`the server exited: ${out}`));
    });
  });
  return { child, url, output: () => out };
}

describe.runIf(runnable)('a server killed with SIGKILL mid-run', () => {
  let dir: string;
  const email = 'crash@example.com';
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-crash-'));
    chmodSync(dir, 0o711);
    const database = await openDatabase({ dataDir: dir });
    await migrate(database);
    await new AuthStore(database.db).createUserWithOrganisation({
      userId: crypto.randomUUID(),
      email,
      firstName: 'Crash',
      lastName: 'Test',
      passwordHash: await hashPassword('Crash!pass1'),
      emailVerified: true,
      organisationId: crypto.randomUUID(),
      organisationName: 'Crash',
      workspaceId: crypto.randomUUID(),
    });
    await database.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loses no run and no log line, and repeats none, when its steps outlive it', async () => {
    let server = startServer(dir);
    try {
      let url = await server.url;
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'Crash!pass1' }),
      });
      expect(login.status).toBe(200);
      const { token, projectId } = (await login.json()) as { token: string; projectId: string };
      const headers = {
        authorization: token,
        'x-workspace-id': projectId,
        'content-type': 'application/json',
      };
      const call = async (method: string, route: string, body?: object) => {
        const res = await fetch(`${url}${route}`, {
          method,
          headers,
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, text: await res.text() };
      };
      const created = await call('POST', '/api/pipelines', { name: 'counting', definition: COUNTING });
      expect(created.status, created.text).toBe(201);
      const pipelineId = JSON.parse(created.text).id as string;
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const run = await call('POST', '/api/pipelineruns', { pipelineId });
        expect(run.status, run.text).toBe(201);
        ids.push(JSON.parse(run.text).id);
      }
      // every run is counting, some lines are stored: then the server dies at once
      await waitFor(async () => {
        for (const id of ids.slice(0, 2)) {
          const logs = await call('GET', `/api/pipelineruns/${id}/logs?task=first`);
          if (!logs.text.includes('first line 10')) return false;
        }
        return true;
      }, 30_000);
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.on('exit', resolve));

      server = startServer(dir);
      url = await server.url;
      const runs = await waitFor(async () => {
        const all: PipelineRunDetail[] = [];
        for (const id of ids) {
          const run = JSON.parse((await call('GET', `/api/pipelineruns/${id}`)).text) as PipelineRunDetail;
          if (!FINISHED.includes(run.status)) return false;
          all.push(run);
        }
        return all;
      }, 60_000);
      for (const run of runs) {
        const logs = (await call('GET', `/api/pipelineruns/${run.id}/logs`)).text;
        expect({ status: run.status, reason: run.reason }, logs).toEqual({
          status: 'succeeded',
          reason: 'Succeeded',
        });
        for (const task of ['first', 'second']) {
          const lines = logs.split('\n').filter((l) => l.startsWith(`[${task}/count] ${task} line `));
          expect(lines, `${run.id} ${task}`).toEqual(
            Array.from({ length: LINES }, (_, i) => `[${task}/count] ${task} line ${i + 1}`),
          );
        }
        expect(logs).toContain('[first/after] first after 0');
        expect(logs.split('\n').filter((l) => l.startsWith('[first/count] Running step')).length).toBe(1);
      }
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 120_000);
});
