// `npm run build [server|agent|web …]`: rebuilds them (default: all three) whether stale or not,
// e.g. after a dependency upgrade, with the web app's compressed copies. `npm start` builds only
// what is stale. Type checking is `npm run typecheck` (decision 024).
import { buildIfStale } from './build-steps.mjs';

const names = process.argv.slice(2);
buildIfStale(names.length ? names : undefined, { force: true });
