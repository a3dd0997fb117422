#!/usr/bin/env node
import { Agent, jsonLogger } from './agent.js';
import { parseArgs, USAGE } from './cli.js';
import { KubeClient, loadKubeConfig } from './kube.js';
import { AGENT_VERSION } from './version.js';

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
if (options === 'help') {
  console.log(USAGE);
  process.exit(0);
}

let kube: KubeClient;
try {
  kube = new KubeClient(loadKubeConfig(options));
} catch (error) {
  console.error(
    `Cannot load the Kubernetes configuration: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(2);
}

const agent = new Agent({
  server: options.server,
  token: options.token,
  kube,
  heartbeatSeconds: options.heartbeatSeconds,
  limited: options.limited,
  allowedNamespaces: options.allowedNamespaces,
  log: jsonLogger,
});
jsonLogger.info('slipway agent starting', {
  version: AGENT_VERSION,
  server: options.server,
  limited: options.limited,
  ...(options.limited ? { allowedNamespaces: options.allowedNamespaces } : {}),
});
agent.start();

const shutdown = (signal: string) => {
  jsonLogger.info('stopping', { signal });
  void agent.stop().then(() => process.exit(0));
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
