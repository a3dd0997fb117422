// `npm start`: build what is stale, then run the server (migrations apply at start-up). The web
// assets' brotli/gzip copies are made in the background, so the server does not wait for them.
import { buildIfStale } from './build-steps.mjs';

buildIfStale(undefined, { precompress: 'background' });
await import('../packages/server/dist/main.js');
