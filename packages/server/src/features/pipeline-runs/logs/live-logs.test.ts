import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  decodeLogLines,
  logStreamFrameSchema,
  webSocketProtocols,
  type LogStreamFrame,
  type PipelineRunDetail,
} from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { FINISHED, insertPipeline, waitFor } from '../pipeline-runs.test-helper.js';

const SLOW_LINES = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: talk }
spec:
  tasks:
    - name: talk
      taskSpec:
        steps:
          - name: first
            image: alpine
            script: |
              printf '\\033[31mred\\033[0m\\n'
              for i in 1 2 3 4 5; do echo "line $i"; sleep 0.1; done
          - name: second
            image: alpine
            script: 'echo done-second'
    - name: after
      runAfter: [talk]
      taskSpec: { steps: [{ name: only, image: alpine, script: 'echo after-line; echo Needle here' }] }
`;

interface Session {
  frames: LogStreamFrame[];
  closed: Promise<{ code: number }>;
}

/** Opens the log socket the way the browser does: credentials in Sec-WebSocket-Protocol. */
function follow(base: string, path: string, user: TestUser | null, workspace?: string): Promise<Session> {
  const protocols = user
    ? webSocketProtocols({
        authorization: user.headers.authorization!,
        workspace: workspace ?? user.headers['x-workspace-id']!,
      })
    : ['slipway.v1'];
  const ws = new WebSocket(`${base}${path}`, protocols);
  const frames: LogStreamFrame[] = [];
  ws.on('message', (data) => frames.push(logStreamFrameSchema.parse(JSON.parse(String(data)))));
  const closed = new Promise<{ code: number }>((resolve) => ws.on('close', (code) => resolve({ code })));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ frames, closed }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

const linesOf = (frames: LogStreamFrame[]) =>
  frames.flatMap((f) =>
    f.type === 'lines' ? decodeLogLines(f).map((l) => `${f.task}/${l[0]}: ${l[3]}`) : [],
  );

describe('live run logs over WebSocket, download and search', () => {
  let t: TestApp;
  let user: TestUser;
  let base: string;
  let pipelineId: string;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address() as { port: number };
    base = `ws://127.0.0.1:${address.port}`;
    pipelineId = await insertPipeline(t.db.database, user.workspaceId, SLOW_LINES, { name: 'talk' });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (url: string, headers = user.headers) => t.app.inject({ method: 'GET', url, headers });
  const start = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: user.headers,
      payload: { pipelineId },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const finished = (id: string) =>
    waitFor(async () => {
      const run = (await inject(`/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(run.status) && run;
    }, 15_000);

  it('refuses a socket without a token or with a bad one (401), in a foreign workspace or for a foreign run (404)', async () => {
    const id = await start();
    const path = `/api/ws/pipelineruns/${id}/logs`;
    await expect(follow(base, path, null)).rejects.toThrow('HTTP 401');
    const forged = { ...user, headers: { ...user.headers, authorization: 'Bearer not-a-token' } };
    await expect(follow(base, path, forged)).rejects.toThrow('HTTP 401');
    const other = await createSignedInUser(t.app, t.db.database);
    await expect(follow(base, path, user, other.workspaceId)).rejects.toThrow('HTTP 404');
    await expect(follow(base, path, other)).rejects.toThrow('HTTP 404');
    await finished(id);
  });

  it('streams a running run live, in order with ANSI kept, then an end frame, and closes', async () => {
    const id = await start();
    const session = await follow(base, `/api/ws/pipelineruns/${id}/logs`, user);
    const { code } = await session.closed;
    expect(code).toBe(1000);
    const lines = linesOf(session.frames);
    expect(lines.filter((l) => !l.includes('Running step'))).toEqual([
      'talk/first: \x1b[31mred\x1b[0m',
      'talk/first: line 1',
      'talk/first: line 2',
      'talk/first: line 3',
      'talk/first: line 4',
      'talk/first: line 5',
      'talk/second: done-second',
      'after/only: after-line',
      'after/only: Needle here',
    ]);
    // several frames: the lines came while the step ran, not all at the end
    expect(session.frames.filter((f) => f.type === 'lines').length).toBeGreaterThan(1);
    const end = session.frames.at(-1)!;
    expect(end).toEqual({ type: 'end', status: 'succeeded', next: lines.length });
    let from = 0;
    for (const f of session.frames)
      if (f.type === 'lines') {
        expect(f.from).toBe(from);
        from += f.text.length;
      }
  });

  it('backfills a finished run from an offset, by task and by step', async () => {
    const id = await start();
    await finished(id);
    const all = await follow(base, `/api/ws/pipelineruns/${id}/logs`, user);
    await all.closed;
    const total = linesOf(all.frames);
    const tail = await follow(base, `/api/ws/pipelineruns/${id}/logs?offset=${total.length - 2}`, user);
    await tail.closed;
    expect(linesOf(tail.frames)).toEqual(total.slice(-2));
    expect(tail.frames[0]).toMatchObject({ type: 'lines', from: total.length - 2 });
    expect(tail.frames.at(-1)).toEqual({ type: 'end', status: 'succeeded', next: total.length });

    const step = await follow(base, `/api/ws/pipelineruns/${id}/logs?task=talk&step=first&offset=1`, user);
    await step.closed;
    expect(linesOf(step.frames)).toEqual(total.filter((l) => l.startsWith('talk/first:')).slice(1));
    expect(step.frames.at(-1)).toMatchObject({ type: 'end', status: 'succeeded' });

    const missing = await follow(base, `/api/ws/pipelineruns/${id}/logs?task=nope`, user);
    expect((await missing.closed).code).toBe(1000);
    expect(missing.frames).toEqual([{ type: 'error', message: 'The run has no task "nope"' }]);
  });

  it('ends a task stream when the task finishes, while the run goes on', async () => {
    const id = await start();
    const session = await follow(base, `/api/ws/pipelineruns/${id}/logs?task=talk`, user);
    await session.closed;
    expect(session.frames.at(-1)).toMatchObject({ type: 'end', status: 'succeeded' });
    expect(linesOf(session.frames).every((l) => l.startsWith('talk/'))).toBe(true);
    await finished(id);
  });

  it('downloads the whole run or one step as a file, ANSI kept', async () => {
    const id = await start();
    const run = await finished(id);
    const whole = await inject(`/api/pipelineruns/${id}/logs?download=1`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="${run.name}.log"`);
    expect(whole.body).toContain('[talk/first] \x1b[31mred\x1b[0m\n');
    expect(whole.body).toContain('[after/only] Needle here\n');
    const step = await inject(`/api/pipelineruns/${id}/logs?download=1&task=talk&step=second`);
    expect(step.headers['content-disposition']).toBe(`attachment; filename="${run.name}-talk-second.log"`);
    expect(step.body.trimEnd().split('\n').at(-1)).toBe('done-second');
    expect(step.body).not.toContain('line 1');
    expect((await inject(`/api/pipelineruns/${id}/logs?download=1&task=nope`)).statusCode).toBe(404);
  });

  it('searches a run: matching lines with task, step and line number; ANSI ignored; paged', async () => {
    const id = await start();
    await finished(id);
    const res = await inject(`/api/pipelineruns/${id}/logs/search?q=NEEDLE`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('1');
    const [match] = res.json() as { task: string; step: string; line: number; text: string }[];
    expect(match).toMatchObject({ task: 'after', step: 'only', text: 'Needle here' });
    const taskLog = (await inject(`/api/pipelineruns/${id}/logs?task=after`)).body.trimEnd().split('\n');
    expect(taskLog[match!.line - 1]).toBe('Needle here');
    const red = await inject(`/api/pipelineruns/${id}/logs/search?q=red`);
    expect((red.json() as { text: string }[])[0]!.text).toBe('\x1b[31mred\x1b[0m');
    const lines = await inject(`/api/pipelineruns/${id}/logs/search?q=line&_start=1&_end=3`);
    expect(lines.headers['x-total-count']).toBe('6');
    expect((lines.json() as { text: string }[]).map((m) => m.text)).toEqual(['line 2', 'line 3']);
    const bad = await inject(`/api/pipelineruns/${id}/logs/search?q=`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('q');
  });
});
