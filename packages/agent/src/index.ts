export {
  Agent,
  connectUrl,
  reconnectDelay,
  jsonLogger,
  silentLogger,
  type AgentLogger,
  type AgentOptions,
} from './agent.js';
export { CommandRunner, NamespacePolicy } from './commands.js';
export { parseArgs, type CliOptions } from './cli.js';
export * from './health.js';
export { AgentError, KubeClient, loadKubeConfig, parseCpu, toAgentError } from './kube.js';
export { AGENT_VERSION } from './version.js';
