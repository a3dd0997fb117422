// `npm run bench`: every benchmark, one after another (they share the two cores).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
let failed = 0;
for (const b of [
  'cold-start.mjs',
  'idle-memory.mjs',
  'web-bundle.mjs',
  'authz-throughput.mjs',
  'agent-heartbeats.mjs',
  'pipeline-fanout.mjs',
  'pipeline-throughput.mjs',
  'pipeline-logs.mjs',
  'tekton-expand.mjs',
  'step-image-overhead.mjs',
  'crash-recovery.mjs',
  'newcomer.mjs',
]) {
  const r = spawnSync(process.execPath, [here + b], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
