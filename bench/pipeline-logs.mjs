// Live logs: one step prints 1,000,000 lines while 20 WebSocket subscribers follow it. Every
// subscriber must receive every line, in order; end to end is from the step's start to the last
// subscriber's end frame. The server runs in its own process; its RSS is sampled every 100 ms.
// Target: every line to every subscriber in order, >= 200,000 lines a second, RSS < 400 MB.
import WebSocket from 'ws';
import { rssMb, report, runFinished, startPipelineServer } from './lib.mjs';

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 20);
const definition = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: chatty }
spec:
  tasks:
    - name: print
      taskSpec: { steps: [{ name: s, image: alpine, script: 'seq 1 ${LINES}' }] }
`;

function b64(text) {
  return Buffer.from(text).toString('base64url');
}

const server = await startPipelineServer(
  {},
  process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
);
let peakRss = 0;
const sampler = setInterval(() => {
  try {
    peakRss = Math.max(peakRss, rssMb(server.pid));
  } catch {
    // the server is gone
  }
}, 100);
try {
  const idleRss = rssMb(server.pid);
  const pipeline = await server.api('POST', 'pipelines', { name: 'chatty', definition });
  const run = await server.api('POST', 'pipelineruns', { pipelineId: pipeline.id });
  const protocols = [
    'slipway.v1',
    `auth.${b64(`Bearer ${server.token}`)}`,
    `workspace.${b64(server.workspaceId)}`,
  ];
  const wsUrl = `${server.url.replace('http', 'ws')}/api/ws/pipelineruns/${run.id}/logs?task=print&step=s`;
  const results = await Promise.all(
    Array.from(
      { length: SUBSCRIBERS },
      () =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(wsUrl, protocols);
          let expected = 1;
          let bad = null;
          let endAt = 0;
          let status = '';
          ws.on('message', (data) => {
            const frame = JSON.parse(String(data));
            if (frame.type === 'lines') {
              let i = 0;
              for (let r = 0; r < frame.runs.length; r += 3) {
                const [stream, count] = [frame.runs[r + 1], frame.runs[r + 2]];
                for (let k = 0; k < count; k++, i++) {
                  if (stream === 'system') continue;
                  const text = frame.text[i];
                  if (text !== String(expected) && !bad) bad = `line ${expected}: got "${text}"`;
                  expected += 1;
                }
              }
            } else if (frame.type === 'end') {
              endAt = Date.now();
              status = frame.status;
            } else reject(new Error(frame.message));
          });
          ws.on('close', () => resolve({ received: expected - 1, bad, endAt, status }));
          ws.on('error', reject);
        }),
    ),
  );
  const detail = await runFinished(server, run.id);
  const stepStart = Date.parse(detail.taskRuns[0].steps[0].startedAt);
  const lastEnd = Math.max(...results.map((r) => r.endAt));
  const complete = results.every((r) => r.received === LINES && !r.bad && r.status === 'succeeded');
  const rate = LINES / ((lastEnd - stepStart) / 1000);
  report(
    `live logs: ${LINES.toLocaleString('en')} lines, ${SUBSCRIBERS} WebSocket subscribers (${server.driver})`,
    {
      'every subscriber got every line in order': complete
        ? 'yes'
        : `NO: ${results.map((r) => r.bad ?? r.received).join(', ')}`,
      'step start → step end (s)': (
        (Date.parse(detail.taskRuns[0].steps[0].finishedAt) - stepStart) /
        1000
      ).toFixed(2),
      'step start → last subscriber done (s)': ((lastEnd - stepStart) / 1000).toFixed(2),
      'lines per second, end to end': rate.toFixed(0),
      'server RSS idle / peak (MB)': `${idleRss.toFixed(0)} / ${peakRss.toFixed(0)}`,
      target: 'all lines in order, >= 200,000 lines/s, RSS < 400 MB',
      verdict: complete && rate >= 200_000 && peakRss < 400 ? 'met' : 'NOT met',
    },
  );
} finally {
  clearInterval(sampler);
  await server.stop();
}
