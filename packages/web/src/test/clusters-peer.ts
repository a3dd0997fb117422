import type { IncomingMessage } from 'node:http';
import type { ZodError } from 'zod';
import {
  clusterCreateSchema,
  clusterNamespacesUpdateSchema,
  environmentCreateSchema,
  environmentUpdateSchema,
  type Cluster,
  type ClusterAttach,
  type ClusterResourceKind,
  type Deployment,
  type EnvironmentDetail,
} from '@slipway/contracts';
import type { Reply } from './peer-types';
import { page } from './route-peer';

/**
 * The clusters side of the test peer: `/api/clusters` and `/api/environments` kept in memory,
 * validated with the contracts' schemas and answering in their shapes. Tests move a cluster's
 * status (as an agent's hello would) through `clusters.clusters`.
 */
export interface ClustersPeerDeps {
  fail: (status: number, message: string, details?: { path: string; message: string }[]) => Reply;
  invalid: (error: ZodError) => Reply;
}

const AT = '2025-05-01T10:00:00.000Z';

export function sampleCluster(patch: Partial<Cluster> = {}): Cluster {
  return {
    id: 'cl-1',
    name: 'prod-eu',
    type: 'eks',
    private: false,
    tunnelConfig: null,
    publicRegistryPrefix: 'registry.example.com/acme',
    limitedAgentPermission: false,
    allowedNamespaces: ['ozone'],
    selectedNamespaces: [],
    status: 'active',
    statusMessage: null,
    tokenPrefix: 'slpa_abcdef',
    agentVersion: '0.1.0',
    kubernetesVersion: 'v1.31.2',
    nodeCount: 3,
    totalVcpu: 12,
    namespaces: ['default', 'ozone', 'shop'],
    installedResources: [1, 3],
    storageOptions: [
      {
        name: 'standard',
        provisioner: 'rancher.io/local-path',
        reclaimPolicy: 'Delete',
        bindingMode: 'WaitForFirstConsumer',
        default: true,
      },
    ],
    lastHeartbeatAt: AT,
    connectedAt: AT,
    createdAt: AT,
    updatedAt: AT,
    ...patch,
  };
}

export function sampleEnvironment(patch: Partial<EnvironmentDetail> = {}): EnvironmentDetail {
  return {
    id: 'env-1',
    name: 'staging',
    description: '',
    type: 'staging',
    clusterId: null,
    clusterName: null,
    clusterStatus: null,
    namespace: null,
    taskRunner: 'cluster',
    createdAt: AT,
    updatedAt: AT,
    deployments: [],
    ...patch,
  };
}

export function sampleDeployment(patch: Partial<Deployment> = {}): Deployment {
  return {
    id: 'dep-1',
    environmentId: 'env-1',
    name: 'shop',
    namespace: 'shop',
    resources: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop', namespace: 'shop' }],
    image: 'registry.example.com/acme/shop:1.2.0',
    health: 'healthy',
    healthMessage: null,
    runId: 'run-1',
    deployedAt: AT,
    healthCheckedAt: AT,
    ...patch,
  };
}

export function createClustersPeer(deps: ClustersPeerDeps) {
  const clusters = {
    clusters: [] as Cluster[],
    environments: [] as EnvironmentDetail[],
    /** how many attach manifests were issued (each holds a new token) */
    tokensIssued: 0,
    /** what the agent of every cluster finds: kinds, objects (with YAML) and pod logs */
    kinds: [
      {
        group: '',
        version: 'v1',
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'pods',
        namespaced: true,
        verbs: ['get', 'list'],
      },
      {
        group: '',
        version: 'v1',
        apiVersion: 'v1',
        kind: 'Node',
        name: 'nodes',
        namespaced: false,
        verbs: ['get', 'list'],
      },
    ] as ClusterResourceKind[],
    objects: [] as Array<{
      apiVersion: string;
      kind: string;
      name: string;
      namespace: string | null;
      status: string | null;
      yaml: string;
      labels?: Record<string, string>;
    }>,
    logs: new Map<string, string>(),
  };
  let seq = 0;

  function attach(c: Cluster): ClusterAttach {
    clusters.tokensIssued += 1;
    const fileName = `slipway-agent-${c.name}.yaml`;
    return {
      fileName,
      yaml: `apiVersion: v1\nkind: Secret\nstringData:\n  token: slpa_token${clusters.tokensIssued}\n`,
      command: `kubectl apply -f ${fileName}`,
      tokenPrefix: `slpa_token${clusters.tokensIssued}`,
      serverUrl: 'http://127.0.0.1:8080',
    };
  }
  const summary = ({ deployments: _d, ...e }: EnvironmentDetail) => e;

  function route(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): Reply | undefined {
    const key = `${req.method} ${path}`;
    const parts = path.split('/'); // ['', 'api', 'clusters', id, action]
    const id = parts[3] ?? '';
    if (key === 'GET /api/clusters') return page(clusters.clusters, query);
    if (key === 'POST /api/clusters') {
      const p = clusterCreateSchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      if (clusters.clusters.some((c) => c.name === p.data.name))
        return deps.fail(409, 'A cluster with this name already exists');
      const c = sampleCluster({
        ...p.data,
        tunnelConfig: p.data.tunnelConfig ?? null,
        id: `cl-new-${++seq}`,
        status: 'attaching',
        agentVersion: null,
        kubernetesVersion: null,
        nodeCount: null,
        totalVcpu: null,
        namespaces: [],
        installedResources: [],
        storageOptions: [],
        lastHeartbeatAt: null,
        connectedAt: null,
      });
      clusters.clusters.push(c);
      return [201, { cluster: c, attach: attach(c) }];
    }
    if (parts[2] === 'clusters' && id) {
      const c = clusters.clusters.find((x) => x.id === id);
      if (!c) return deps.fail(404, 'Cluster not found');
      const action = parts[4];
      if (req.method === 'GET' && !action) return [200, c];
      if (req.method === 'GET' && action === 'kinds') return [200, clusters.kinds];
      if (req.method === 'GET' && action === 'resources') {
        const rows = clusters.objects.filter(
          (o) =>
            o.apiVersion === query.get('apiVersion') &&
            o.kind === query.get('kind') &&
            (!query.get('namespace') || o.namespace === query.get('namespace')) &&
            // equality selectors, comma-separated, as Kubernetes reads them
            (query.get('labelSelector') ?? '')
              .split(',')
              .filter(Boolean)
              .every((term) => {
                const [k, v] = term.split('=');
                return o.labels?.[k!] === v;
              }),
        );
        return [
          200,
          rows.map((o) => ({ name: o.name, namespace: o.namespace, createdAt: AT, status: o.status })),
        ];
      }
      if (req.method === 'GET' && action === 'resource') {
        const o = clusters.objects.find((x) => x.kind === query.get('kind') && x.name === query.get('name'));
        return o ? [200, { object: {}, yaml: o.yaml }] : deps.fail(404, 'not found');
      }
      if (req.method === 'GET' && action === 'logs')
        return [
          200,
          clusters.logs.get(`${query.get('namespace')}/${query.get('pod')}`) ?? '',
          { 'content-type': 'text/plain' },
        ];
      if (req.method === 'POST' && action === 'attach') {
        c.status = 'attaching';
        return [200, attach(c)];
      }
      if (req.method === 'POST' && action === 'detach') {
        c.status = 'detached';
        return [200, c];
      }
      if (req.method === 'PUT' && action === 'namespaces') {
        const p = clusterNamespacesUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        c.selectedNamespaces = p.data.selectedNamespaces;
        return [200, c];
      }
    }
    if (key === 'GET /api/environments') return page(clusters.environments.map(summary), query);
    if (key === 'POST /api/environments') {
      const p = environmentCreateSchema.safeParse(body);
      if (!p.success) return deps.invalid(p.error);
      const cluster = clusters.clusters.find((c) => c.id === p.data.clusterId);
      const env = sampleEnvironment({
        ...p.data,
        id: `env-new-${++seq}`,
        clusterId: p.data.clusterId ?? null,
        namespace: p.data.namespace ?? null,
        clusterName: cluster?.name ?? null,
        clusterStatus: cluster?.status ?? null,
      });
      clusters.environments.push(env);
      return [201, env];
    }
    if (parts[2] === 'environments' && id) {
      const env = clusters.environments.find((e) => e.id === id);
      if (!env) return deps.fail(404, 'Environment not found');
      if (req.method === 'GET') return [200, env];
      if (req.method === 'PUT') {
        const p = environmentUpdateSchema.safeParse(body);
        if (!p.success) return deps.invalid(p.error);
        const cluster = clusters.clusters.find((c) => c.id === (p.data.clusterId ?? env.clusterId));
        Object.assign(env, p.data, {
          clusterName: cluster?.name ?? null,
          clusterStatus: cluster?.status ?? null,
        });
        return [200, env];
      }
      if (req.method === 'DELETE') {
        clusters.environments = clusters.environments.filter((e) => e.id !== id);
        return [204];
      }
    }
    return undefined;
  }

  return { clusters, route };
}
