// `npm start`: build what is stale, then run the server (migrations apply at start-up).
import { buildIfStale } from './build-steps.mjs';

buildIfStale();
await import('../packages/server/dist/main.js');
