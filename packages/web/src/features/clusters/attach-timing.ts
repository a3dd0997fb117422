import { CLUSTER_CONNECTED_REDIRECT_MS, CLUSTER_HEARTBEAT_EXPECTED_MS } from '@slipway/contracts';

/**
 * How the attach flow waits: it polls the cluster every `pollMs` until the agent's first
 * heartbeat; after `connectWaitMs` without one the cluster is not connected. Once connected
 * (and its namespaces chosen) it opens the pipelines after `redirectMs` (spec §9: 3 seconds).
 * Tests shorten these.
 */
export const attachTiming = {
  pollMs: 2000,
  connectWaitMs: CLUSTER_HEARTBEAT_EXPECTED_MS,
  redirectMs: CLUSTER_CONNECTED_REDIRECT_MS,
};
