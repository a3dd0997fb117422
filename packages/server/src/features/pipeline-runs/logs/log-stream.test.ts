import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logStreamFrameSchema, type LogStreamFrame } from '@slipway/contracts';
import { pipelineRuns } from '../../../platform/database/schema.js';
import { createTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { insertPipeline, seedWorkspace, waitFor } from '../pipeline-runs.test-helper.js';
import { RunStore } from '../run-store.js';
import { TaskStore } from '../task-store.js';
import type { StoredLine } from './chunk-codec.js';
import { LogHub } from './log-hub.js';
import { LogPublisher } from './log-publisher.js';
import { LogStore } from './log-store.js';
import { LogStream, type LogSocket, type LogStreamSource } from './log-stream.js';

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: x }
spec:
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`;

/** A socket whose send buffer the test fills and drains. */
class FakeSocket implements LogSocket {
  frames: LogStreamFrame[] = [];
  full = false;
  closedWith: number | undefined;
  get bufferedAmount() {
    return this.full ? 1 << 30 : 0;
  }
  send(data: string | Buffer) {
    this.frames.push(logStreamFrameSchema.parse(JSON.parse(String(data))));
  }
  close(code?: number) {
    this.closedWith = code;
  }
  texts() {
    return this.frames.flatMap((f) => (f.type === 'lines' ? f.text : []));
  }
}

describe('LogStream (real database)', () => {
  let db: TestDatabase;
  let runs: RunStore;
  let tasks: TaskStore;
  let logs: LogStore;
  let source: LogStreamSource;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    runs = new RunStore(db.database.db);
    tasks = new TaskStore(db.database.db);
    logs = new LogStore(db.database.db);
    workspaceId = await seedWorkspace(db.database);
    source = {
      taskRuns: (id) => tasks.taskRuns(id),
      chunksAfter: (id, after, limit) => logs.chunksAfter(id, after, limit),
      runStatus: async (id) => (await runs.byId(id))?.status,
    };
  });
  afterAll(async () => {
    await db.dispose();
  });

  async function newRun() {
    const pipelineId = await insertPipeline(db.database, workspaceId, PIPELINE);
    const run = await runs.create({
      workspaceId,
      pipelineId,
      pipelineName: 'x',
      pipelineVersion: 1,
      params: {},
      workspaceBindings: [],
      timeoutMs: 60_000,
      trigger: { kind: 'user' },
    });
    await db.database.db
      .update(pipelineRuns)
      .set({ status: 'in_progress' })
      .where(eq(pipelineRuns.id, run.id));
    const taskRunId = await tasks.upsertTaskRun({
      runId: run.id,
      name: 't',
      pipelineTask: 't',
      isFinally: false,
      status: 'running',
    });
    return { runId: run.id, taskRunId };
  }

  let seq = 0;
  const lines = (...texts: string[]): StoredLine[] =>
    texts.map((text) => ({ seq: ++seq, at: Date.now(), stream: 'stdout', step: 's', text }));

  it('a reader that falls behind drops live chunks and reads them back: every line once, in order', async () => {
    const { runId, taskRunId } = await newRun();
    const hub = new LogHub();
    const publisher = new LogPublisher(logs, hub, null);
    await publisher.append(runId, taskRunId, lines('a1', 'a2'));
    const socket = new FakeSocket();
    const stream = new LogStream(source, hub, socket, runId, { offset: 0, pollMs: 60_000, pageChunks: 2 });
    await stream.start();
    expect(socket.texts()).toEqual(['a1', 'a2']);
    socket.full = true;
    const expected = ['a1', 'a2'];
    for (let i = 0; i < 7; i++) {
      await publisher.append(runId, taskRunId, lines(`b${i}`, `c${i}`));
      expected.push(`b${i}`, `c${i}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(socket.texts()).toEqual(['a1', 'a2']); // nothing taken while full
    socket.full = false;
    await waitFor(async () => socket.texts().length === expected.length);
    await publisher.append(runId, taskRunId, lines('live'));
    expected.push('live');
    await waitFor(async () => socket.texts().length === expected.length);
    await db.database.db.update(pipelineRuns).set({ status: 'failed' }).where(eq(pipelineRuns.id, runId));
    await publisher.end(runId, null);
    await waitFor(async () => socket.closedWith !== undefined);
    expect(socket.texts()).toEqual(expected);
    expect(socket.frames.at(-1)).toEqual({ type: 'end', status: 'failed', next: expected.length });
    expect(socket.closedWith).toBe(1000);
    expect(hub.subscribers).toBe(0);
  });

  it('serialises each chunk once per selection and shares it between subscribers', async () => {
    const { runId, taskRunId } = await newRun();
    const hub = new LogHub();
    const publisher = new LogPublisher(logs, hub, null);
    const sockets = [new FakeSocket(), new FakeSocket()];
    const streams = sockets.map((s) => new LogStream(source, hub, s, runId, { offset: 0, pollMs: 60_000 }));
    await Promise.all(streams.map((s) => s.start()));
    let shared: unknown;
    hub.subscribe(runId, (event) => {
      if (event.kind === 'chunk') shared = event.chunk;
    });
    await publisher.append(runId, taskRunId, lines('x'));
    await Promise.all(streams.map((s) => s.settled()));
    expect(sockets.map((s) => s.texts())).toEqual([['x'], ['x']]);
    expect((shared as { frames: Map<string, unknown> }).frames.size).toBe(1);
    for (const s of streams) s.stop();
  });
});
