import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, KubeClient, loadKubeConfig, silentLogger } from '@slipway/agent';
import type { KubeApiServer } from '@slipway/agent/test-kube-api-server';
import { agentSettingsOf } from '../packages/server/src/features/clusters/attached-agent.test-helper.js';

/**
 * The real agent started as the attach YAML the browser downloaded says (its token, limits and
 * allowed namespaces), against the protocol-level API server through a kubeconfig in `dir`.
 */
export function startAgentFromYaml(
  yamlPath: string,
  api: KubeApiServer,
  serverUrl: string,
  dir: string,
): Agent {
  const settings = agentSettingsOf(readFileSync(yamlPath, 'utf8'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, api.kubeconfig());
  const agent = new Agent({
    server: serverUrl,
    token: settings.token,
    kube: new KubeClient(loadKubeConfig({ kubeconfig })),
    heartbeatSeconds: 2,
    limited: settings.limited,
    allowedNamespaces: settings.allowed,
    log: silentLogger,
  });
  agent.start();
  return agent;
}
