import { stringify } from 'yaml';

/** The namespace the agent runs in, and the name of its ServiceAccount, Secret and Deployment. */
export const AGENT_NAMESPACE = 'slipway-agent';
export const AGENT_NAME = 'slipway-agent';

export interface AttachManifestInput {
  clusterId: string;
  clusterName: string;
  /** the agent's token, in plain text: it exists only in this manifest */
  token: string;
  /** where the agent dials out to (SLIPWAY_PUBLIC_URL) */
  serverUrl: string;
  image: string;
  limitedAgentPermission: boolean;
  allowedNamespaces: readonly string[];
}

export type K8sObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

const labels = { 'app.kubernetes.io/name': AGENT_NAME, 'app.kubernetes.io/managed-by': 'slipway' };

/**
 * Read-only access to the cluster-wide facts the agent reports in its hello (version, nodes,
 * vCPU, namespaces, storage classes, add-ons through discovery). A limited agent gets only this
 * outside its allowed namespaces.
 */
const FACT_RULES = [
  { apiGroups: [''], resources: ['nodes', 'namespaces'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get', 'list'] },
];

const subject = [{ kind: 'ServiceAccount', name: AGENT_NAME, namespace: AGENT_NAMESPACE }];

/**
 * Everything the attach YAML holds, in apply order: the agent's Namespace and ServiceAccount,
 * its RBAC (a ClusterRole and binding; or, for a limited agent, a Role and RoleBinding per allowed
 * namespace plus a read-only ClusterRole for the facts), a Secret with the token and the
 * server's address, and the agent's Deployment.
 */
export function attachObjects(input: AttachManifestInput): K8sObject[] {
  const objects: K8sObject[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: AGENT_NAMESPACE, labels } },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: AGENT_NAME, namespace: AGENT_NAMESPACE, labels },
    },
  ];
  if (input.limitedAgentPermission) {
    objects.push(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: `${AGENT_NAME}-facts`, labels },
        rules: FACT_RULES,
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${AGENT_NAME}-facts`, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${AGENT_NAME}-facts` },
        subjects: subject,
      },
    );
    for (const ns of input.allowedNamespaces) {
      if (ns !== AGENT_NAMESPACE)
        objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: {} } });
      objects.push(
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: AGENT_NAME, namespace: ns, labels },
          rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: AGENT_NAME, namespace: ns, labels },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: AGENT_NAME },
          subjects: subject,
        },
      );
    }
  } else {
    objects.push(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: AGENT_NAME, labels },
        rules: [
          { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
          { nonResourceURLs: ['*'], verbs: ['get'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: AGENT_NAME, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: AGENT_NAME },
        subjects: subject,
      },
    );
  }
  objects.push(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: AGENT_NAME, namespace: AGENT_NAMESPACE, labels },
      type: 'Opaque',
      stringData: {
        token: input.token,
        'server-url': input.serverUrl,
        'cluster-id': input.clusterId,
      },
    },
    agentDeployment(input),
  );
  return objects;
}

function fromSecret(name: string, key: string) {
  return { name, valueFrom: { secretKeyRef: { name: AGENT_NAME, key } } };
}

function agentDeployment(input: AttachManifestInput): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: AGENT_NAME, namespace: AGENT_NAMESPACE, labels },
    spec: {
      replicas: 1,
      // One agent per cluster: the old one stops before the new one dials in.
      strategy: { type: 'Recreate' },
      selector: { matchLabels: { 'app.kubernetes.io/name': AGENT_NAME } },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: AGENT_NAME,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [
            {
              name: 'agent',
              image: input.image,
              imagePullPolicy: 'IfNotPresent',
              env: [
                fromSecret('SLIPWAY_SERVER', 'server-url'),
                fromSecret('SLIPWAY_AGENT_TOKEN', 'token'),
                { name: 'SLIPWAY_LIMITED', value: String(input.limitedAgentPermission) },
                { name: 'SLIPWAY_ALLOWED_NAMESPACES', value: input.allowedNamespaces.join(',') },
              ],
              resources: {
                requests: { cpu: '50m', memory: '64Mi' },
                limits: { cpu: '500m', memory: '256Mi' },
              },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
        },
      },
    },
  };
}

/** The objects as one multi-document YAML file. */
export function attachYaml(input: AttachManifestInput): string {
  const header =
    `# Slipway agent for cluster "${input.clusterName}" (${input.clusterId}).\n` +
    "# Holds this cluster's agent token: keep the file private. Apply it with kubectl apply -f.\n";
  return (
    header +
    attachObjects(input)
      .map((o) => `---\n${stringify(o, { lineWidth: 0 })}`)
      .join('')
  );
}

/** The file name offered for download: slipway-agent-<cluster name as a slug>.yaml */
export function attachFileName(clusterName: string): string {
  const slug = clusterName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return `slipway-agent-${slug || 'cluster'}.yaml`;
}

/** The one-line command to copy (attach step 2). */
export function attachCommand(fileName: string): string {
  return `kubectl apply -f ${fileName}`;
}
