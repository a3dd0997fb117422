import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { logStreamFrameSchema, webSocketProtocols, type LogStreamFrame } from '@slipway/contracts';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../platform/config.js';
import { openDatabase, type Database } from '../../../platform/database/database.js';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../../../test-support/test-database.js';
import { insertPipeline, waitFor } from '../pipeline-runs.test-helper.js';

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: remote }
spec:
  tasks:
    - name: speak
      taskSpec:
        steps:
          - { name: s, image: alpine, script: 'echo first; sleep 1; echo second; sleep 0.3; echo third' }
`;

/** Two server processes' worth of app on one PostgreSQL: A runs pipelines, B serves sockets only. */
describe.skipIf(!onPostgres)('live logs across two server instances on one PostgreSQL', () => {
  let db: TestDatabase;
  let dir: string;
  const apps: FastifyInstance[] = [];
  const databases: Database[] = [];
  let user: TestUser;

  async function instance(name: string, engine: 'on' | 'off', masterKey: string) {
    const config = loadConfig({
      DATABASE_URL: db.url!,
      SLIPWAY_DATA_DIR: path.join(dir, name),
      SLIPWAY_WEB_DIR: path.join(dir, 'web'),
      SLIPWAY_MASTER_KEY: masterKey,
      SLIPWAY_ENGINE: engine,
      // no registry is reachable from the test machines: a step's root is the host's system
      SLIPWAY_STEP_IMAGES: 'host',
    });
    const database = await openDatabase({ databaseUrl: db.url, dataDir: '', poolMax: 4 });
    databases.push(database);
    const app = await buildApp({ config, database, logger: false });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, url: `ws://127.0.0.1:${(app.server.address() as { port: number }).port}` };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-live-pg-'));
    // the sandbox's host user passes through to the run directories bwrap binds (never reads them)
    chmodSync(dir, 0o711);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await db.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows on B, live, a run that A executes', async () => {
    const key = randomBytes(32).toString('hex');
    const a = await instance('a', 'on', key);
    const b = await instance('b', 'off', key);
    user = await createSignedInUser(a.app, db.database);
    const pipelineId = await insertPipeline(db.database, user.workspaceId, PIPELINE);
    const created = await b.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: user.headers,
      payload: { pipelineId },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const ws = new WebSocket(
      `${b.url}/api/ws/pipelineruns/${id}/logs?task=speak&step=s`,
      webSocketProtocols({
        authorization: user.headers.authorization!,
        workspace: user.workspaceId,
      }),
    );
    const arrivals: { frame: LogStreamFrame; runStatus: string }[] = [];
    const statuses: Promise<void>[] = [];
    ws.on('message', (data) => {
      const frame = logStreamFrameSchema.parse(JSON.parse(String(data)));
      const entry = { frame, runStatus: '' };
      arrivals.push(entry);
      statuses.push(
        b.app
          .inject({ method: 'GET', url: `/api/pipelineruns/${id}`, headers: user.headers })
          .then((r) => void (entry.runStatus = r.json().status)),
      );
    });
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    await Promise.all(statuses);
    expect(code).toBe(1000);
    const texts = arrivals.flatMap((x) => (x.frame.type === 'lines' ? x.frame.text : []));
    expect(texts.filter((t) => !t.startsWith('Running step'))).toEqual(['first', 'second', 'third']);
    const first = arrivals.find((x) => x.frame.type === 'lines' && x.frame.text.includes('first'))!;
    // 'first' reached B while A was still running the step: it came live, not at the end
    expect(first.runStatus).toBe('in_progress');
    expect(arrivals.at(-1)!.frame).toMatchObject({ type: 'end', status: 'succeeded' });
    // the task's stream ends with the task; the run ends just after
    await waitFor(async () => {
      const run = await b.app.inject({
        method: 'GET',
        url: `/api/pipelineruns/${id}`,
        headers: user.headers,
      });
      return run.json().status === 'succeeded';
    });
  });
});
