import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, KubeClient, loadKubeConfig, silentLogger } from '@slipway/agent';
import { KubeApiServer, type KubeApiServerOptions } from '@slipway/agent/test-kube-api-server';
import type { ClusterCreated } from '@slipway/contracts';
import { parseAllDocuments } from 'yaml';
import type { TestUser } from '../../test-support/identity.js';
import type { TestApp } from '../../test-support/test-app.js';

/** The agent's settings as the attach YAML gives them to its Deployment. */
export function agentSettingsOf(yaml: string): {
  token: string;
  server: string;
  limited: boolean;
  allowed: string[];
} {
  const objects = parseAllDocuments(yaml).map((d) => d.toJS() as Record<string, never>);
  const secret = objects.find((o) => o.kind === 'Secret') as unknown as {
    stringData: Record<string, string>;
  };
  const deployment = objects.find((o) => o.kind === 'Deployment') as unknown as {
    spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
  };
  const env = Object.fromEntries(
    deployment.spec.template.spec.containers[0]!.env.map((e) => [e.name, e.value ?? '']),
  );
  return {
    token: secret.stringData.token!,
    server: secret.stringData['server-url']!,
    limited: env.SLIPWAY_LIMITED === 'true',
    allowed: (env.SLIPWAY_ALLOWED_NAMESPACES ?? '').split(',').filter(Boolean),
  };
}

export interface AttachedCluster {
  clusterId: string;
  api: KubeApiServer;
  agent: Agent;
  close(): Promise<void>;
}

/**
 * Attaches a cluster the way a user does: configure it through the API, take the token and the
 * limits from the attach YAML, and start the real agent (with the official client) against a
 * protocol-level Kubernetes API server. Answers once the agent has been welcomed.
 */
export async function attachCluster(
  t: TestApp,
  who: TestUser,
  body: Record<string, unknown> = {},
  apiOptions: KubeApiServerOptions = {},
): Promise<AttachedCluster> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/clusters',
    headers: who.headers,
    payload: {
      name: `cluster-${Math.random().toString(36).slice(2, 8)}`,
      type: 'other',
      publicRegistryPrefix: 'registry.example.com',
      ...body,
    },
  });
  if (res.statusCode !== 201) throw new Error(`cluster not created: ${res.body}`);
  const { cluster, attach } = res.json() as ClusterCreated;
  const settings = agentSettingsOf(attach.yaml);
  const api = await KubeApiServer.start(apiOptions);
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-kube-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, api.kubeconfig());
  // The YAML names the public URL; in tests the agent dials this process's loopback port.
  const server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const agent = new Agent({
    server,
    token: settings.token,
    kube: new KubeClient(loadKubeConfig({ kubeconfig })),
    heartbeatSeconds: 1,
    limited: settings.limited,
    allowedNamespaces: settings.allowed,
    backoff: { initialMs: 50, maxMs: 500 },
    log: silentLogger,
  });
  const welcomed = new Promise<void>((resolve, reject) => {
    agent.once('welcome', () => resolve());
    agent.once('refused', (status: number, message: string) =>
      reject(new Error(`refused ${status}: ${message}`)),
    );
  });
  agent.start();
  await welcomed;
  return {
    clusterId: cluster.id,
    api,
    agent,
    async close() {
      await agent.stop();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
