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

// The lines the step prints, made once, and their JSON (`"1","2",…`) with where each line's
// entry starts. The subscribers share this 2-core machine with the server, and parsing 20 million
// lines of JSON would take them longer than the server takes to send them: a frame whose lines
// are all the step's output is checked by comparing its `text` array byte for byte with the
// expected JSON (stricter than parsing it); a frame with other lines (the executor's "Running
// step" line) is parsed and checked line by line.
const EXPECTED = Array.from({ length: LINES }, (_, i) => String(i + 1));
const EXPECTED_JSON = Buffer.from(EXPECTED.map((t) => JSON.stringify(t)).join(','));
const EXPECTED_AT = new Uint32Array(LINES + 1);
for (let i = 0, at = 0; i <= LINES; i++) {
  EXPECTED_AT[i] = at;
  if (i < LINES) at += Buffer.byteLength(JSON.stringify(EXPECTED[i])) + 1;
}
const AT = Buffer.from(',"at":[');
const TEXT = Buffer.from('],"text":[');

/** Checks one frame against the expected lines from `expected` (1-based); answers how many it held. */
function checkFrame(data, expected) {
  const at = data.indexOf(AT);
  const text = at < 0 ? -1 : data.indexOf(TEXT, at);
  if (text >= 0) {
    const head = JSON.parse(`${data.subarray(0, at).toString()}}`);
    if (head.type === 'lines' && head.runs.every((v, i) => i % 3 !== 1 || v !== 'system')) {
      let count = 0;
      for (let r = 2; r < head.runs.length; r += 3) count += head.runs[r];
      const first = expected - 1;
      if (first + count > LINES) return { frame: head, count, bad: `more lines than printed` };
      const want = EXPECTED_JSON.subarray(EXPECTED_AT[first], EXPECTED_AT[first + count] - 1);
      const got = data.subarray(text + TEXT.length, data.length - 2);
      const ok = want.equals(got) && data[data.length - 2] === 0x5d && data[data.length - 1] === 0x7d;
      return { frame: head, count, bad: ok ? null : `lines ${expected}..${expected + count - 1} differ` };
    }
  }
  const frame = JSON.parse(String(data));
  if (frame.type !== 'lines') return { frame, count: 0, bad: null };
  let i = 0;
  let count = 0;
  let bad = null;
  for (let r = 0; r < frame.runs.length; r += 3) {
    const [stream, n] = [frame.runs[r + 1], frame.runs[r + 2]];
    for (let k = 0; k < n; k++, i++) {
      if (stream === 'system') continue;
      const line = expected + count;
      if (frame.text[i] !== EXPECTED[line - 1] && !bad) bad = `line ${line}: got "${frame.text[i]}"`;
      count += 1;
    }
  }
  return { frame, count, bad };
}

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
            const checked = checkFrame(data, expected);
            const frame = checked.frame;
            if (frame.type === 'lines') {
              if (checked.bad && !bad) bad = checked.bad;
              expected += checked.count;
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
