// `npm run agent -- --kubeconfig … --server … --token …`: build the agent when stale, then run it.
import { buildIfStale } from './build-steps.mjs';

buildIfStale(['agent']);
await import('../packages/agent/dist/main.js');
