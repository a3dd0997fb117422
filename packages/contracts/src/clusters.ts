import { z } from 'zod';
import { apiResourceSchema, storageClassSchema } from './agent-protocol.js';
import { LIMITED_AGENT_DEFAULT_NAMESPACES } from './constants.js';
import { MESSAGES } from './messages.js';
import { listQuerySchema } from './paging.js';
import { nameSchema } from './validation.js';
import { idAndName, changeStamps } from './shared.js';

/**
 * Clusters attached through the in-cluster agent and browsing them through it (spec §3 cluster,
 * storage options, limited agent; §4 statuses). Environments and deployments: environments.ts.
 */

/** Cluster kinds (spec §3 provider kinds: AWS EKS, Azure AKS, Google GKE, or any other). */
export const CLUSTER_TYPES = ['eks', 'aks', 'gke', 'other'] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];
export const CLUSTER_TYPE_NAMES: Record<ClusterType, string> = {
  eks: 'AWS EKS',
  aks: 'Azure AKS',
  gke: 'Google GKE',
  other: 'Other',
};

/**
 * The agent statuses as stored (spec §4: active, not active, in progress (attaching), in
 * creation, creation failed), plus detached: the token was revoked.
 */
export const CLUSTER_STATUSES = [
  'in_creation',
  'creation_failed',
  'attaching',
  'active',
  'not_active',
  'detached',
] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

/**
 * The add-on catalogue that a cluster's installedResources ids refer to (spec §3: default ids
 * setup {6,7}; custom and defaultCluster {1,3,5,7,9,12}). `key` is the name the agent reports
 * in its hello's installedAddons (agent-protocol AGENT_ADDON_GROUPS).
 */
export const CLUSTER_ADD_ONS = [
  { id: 1, key: 'tekton', name: 'Tekton Pipelines' },
  { id: 2, key: 'istio', name: 'Istio' },
  { id: 3, key: 'argocd', name: 'Argo CD' },
  { id: 4, key: 'keda', name: 'KEDA' },
  { id: 5, key: 'cert-manager', name: 'cert-manager' },
  { id: 6, key: 'ingress-nginx', name: 'Ingress NGINX' },
  { id: 7, key: 'metrics-server', name: 'Metrics Server' },
  { id: 8, key: 'prometheus-operator', name: 'Prometheus Operator' },
  { id: 9, key: 'velero', name: 'Velero' },
  { id: 10, key: 'volume-snapshots', name: 'Volume snapshots' },
  { id: 11, key: 'helm', name: 'Helm' },
  { id: 12, key: 'vcluster', name: 'vcluster' },
] as const;

export function addOnName(id: number): string {
  return CLUSTER_ADD_ONS.find((a) => a.id === id)?.name ?? `Add-on ${id}`;
}

/** The catalogue ids of the add-ons an agent reports by name; unknown names are left out. */
export function addOnIdsOf(keys: readonly string[]): number[] {
  return CLUSTER_ADD_ONS.filter((a) => keys.includes(a.key))
    .map((a) => a.id)
    .sort((a, b) => a - b);
}

/** A Kubernetes namespace name: an RFC 1123 label. */
export const NAMESPACE_RULE_MESSAGE =
  "Namespace must be lowercase letters, numbers and '-', start and end with a letter or number, at most 63 characters";
export const namespaceNameSchema = z
  .string({ message: MESSAGES.namespaceRequired })
  .trim()
  .min(1, MESSAGES.namespaceRequired)
  .max(63, NAMESPACE_RULE_MESSAGE)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, NAMESPACE_RULE_MESSAGE);

const namespaceListSchema = z
  .array(namespaceNameSchema)
  .max(100, 'at most 100 namespaces')
  .transform((list) => [...new Set(list)]);

const clusterTypeSchema = z.enum(CLUSTER_TYPES, { message: MESSAGES.clusterTypeRequired });

/** Configure cluster (attach step 1). */
export const clusterCreateSchema = z
  .object({
    name: nameSchema(MESSAGES.nameRequired),
    type: clusterTypeSchema,
    private: z.boolean().default(false),
    tunnelConfig: z
      .string()
      .trim()
      .max(10_000, 'Tunnel Config must have at most 10000 characters')
      .optional(),
    publicRegistryPrefix: z
      .string({ message: MESSAGES.publicRegistryPrefixRequired })
      .trim()
      .min(1, MESSAGES.publicRegistryPrefixRequired)
      .max(255, 'Public Registry Prefix must have at most 255 characters')
      .regex(/^[a-z0-9][a-z0-9._:/-]*$/i, 'Public Registry Prefix must be a registry host and path'),
    limitedAgentPermission: z.boolean().default(false),
    allowedNamespaces: namespaceListSchema.default([...LIMITED_AGENT_DEFAULT_NAMESPACES]),
  })
  .superRefine((c, ctx) => {
    if (c.private && !c.tunnelConfig)
      ctx.addIssue({ code: 'custom', path: ['tunnelConfig'], message: MESSAGES.tunnelConfigRequired });
    if (c.limitedAgentPermission && c.allowedNamespaces.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['allowedNamespaces'],
        message: 'A limited agent needs at least one allowed namespace',
      });
  });
export type ClusterCreate = z.input<typeof clusterCreateSchema>;

/** Namespaces chosen for logs (attach step 4). */
export const clusterNamespacesUpdateSchema = z.object({ selectedNamespaces: namespaceListSchema });
export type ClusterNamespacesUpdate = z.infer<typeof clusterNamespacesUpdateSchema>;

/** A storage class of the cluster, as its agent reports it. */
export const storageOptionSchema = storageClassSchema;
export type StorageOption = z.infer<typeof storageOptionSchema>;

export const clusterSchema = z.object({
  ...idAndName(),
  type: z.enum(CLUSTER_TYPES),
  private: z.boolean(),
  tunnelConfig: z.string().nullable(),
  publicRegistryPrefix: z.string().nullable(),
  limitedAgentPermission: z.boolean(),
  allowedNamespaces: z.array(z.string()),
  selectedNamespaces: z.array(z.string()),
  status: z.enum(CLUSTER_STATUSES),
  statusMessage: z.string().nullable(),
  /** the first characters of the agent token, to recognise it by */
  tokenPrefix: z.string().nullable(),
  agentVersion: z.string().nullable(),
  kubernetesVersion: z.string().nullable(),
  nodeCount: z.number().int().nullable(),
  totalVcpu: z.number().nullable(),
  namespaces: z.array(z.string()),
  installedResources: z.array(z.number().int()),
  storageOptions: z.array(storageOptionSchema),
  lastHeartbeatAt: z.string().nullable(),
  connectedAt: z.string().nullable(),
  ...changeStamps(),
});
export type Cluster = z.infer<typeof clusterSchema>;
export const clusterListSchema = z.array(clusterSchema);

export const clusterListQuerySchema = listQuerySchema.safeExtend({
  name: z.string().max(100).optional(),
  status: z.enum(CLUSTER_STATUSES).optional(),
});
export type ClusterListQuery = z.infer<typeof clusterListQuerySchema>;

/**
 * What connecting a cluster needs (attach step 2): the manifest to download, holding a fresh
 * agent token, and the one-line kubectl command that applies it. The token is shown only here.
 */
export const clusterAttachSchema = z.object({
  fileName: z.string(),
  yaml: z.string(),
  command: z.string(),
  tokenPrefix: z.string(),
  serverUrl: z.string(),
});
export type ClusterAttach = z.infer<typeof clusterAttachSchema>;

/** Creating a cluster answers the cluster and its first attach manifest. */
export const clusterCreatedSchema = z.object({ cluster: clusterSchema, attach: clusterAttachSchema });
export type ClusterCreated = z.infer<typeof clusterCreatedSchema>;

// ── Browsing a cluster through its agent ─────────────────────────────────────────────────

/** A kind of resource the cluster serves, as its agent lists them. */
export const clusterResourceKindSchema = apiResourceSchema;
export type ClusterResourceKind = z.infer<typeof clusterResourceKindSchema>;
export const clusterResourceKindListSchema = z.array(clusterResourceKindSchema);

const apiVersionField = z
  .string({ message: 'apiVersion is required' })
  .trim()
  .min(1, 'apiVersion is required')
  .max(253);
const kindField = z.string({ message: 'kind is required' }).trim().min(1, 'kind is required').max(100);

export const clusterResourceListQuerySchema = z.object({
  apiVersion: apiVersionField,
  kind: kindField,
  namespace: namespaceNameSchema.optional(),
  labelSelector: z.string().max(1000).optional(),
});
export type ClusterResourceListQuery = z.infer<typeof clusterResourceListQuerySchema>;

export const clusterResourceSummarySchema = z.object({
  name: z.string(),
  namespace: z.string().nullable(),
  createdAt: z.string().nullable(),
  /** a short state: a Pod's phase, a workload's ready/desired replicas, … */
  status: z.string().nullable(),
});
export type ClusterResourceSummary = z.infer<typeof clusterResourceSummarySchema>;
export const clusterResourceSummaryListSchema = z.array(clusterResourceSummarySchema);

export const clusterResourceQuerySchema = z.object({
  apiVersion: apiVersionField,
  kind: kindField,
  name: z.string({ message: 'name is required' }).trim().min(1, 'name is required').max(253),
  namespace: namespaceNameSchema.optional(),
});
export type ClusterResourceQuery = z.infer<typeof clusterResourceQuerySchema>;

export const clusterResourceDetailSchema = z.object({
  object: z.record(z.string(), z.unknown()),
  /** the object as YAML; a Secret's values are replaced by a mask */
  yaml: z.string(),
});
export type ClusterResourceDetail = z.infer<typeof clusterResourceDetailSchema>;

export const podLogsQuerySchema = z.object({
  namespace: namespaceNameSchema,
  pod: z.string({ message: 'pod is required' }).trim().min(1, 'pod is required').max(253),
  container: z.string().trim().max(253).optional(),
  tailLines: z.coerce.number().int().min(1).max(10_000).optional(),
  /** only lines from the last this many seconds (the pod log API's sinceSeconds) */
  sinceSeconds: z.coerce.number().int().min(1).optional(),
  /** each line starts with its RFC 3339 time (the pod log API's timestamps) */
  timestamps: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
});
export type PodLogsQuery = z.infer<typeof podLogsQuerySchema>;

export const podExecQuerySchema = podLogsQuerySchema
  .omit({ tailLines: true, sinceSeconds: true, timestamps: true })
  .extend({
    /** the program to run, default /bin/sh */
    command: z.string().trim().max(1000).optional(),
  });
export type PodExecQuery = z.infer<typeof podExecQuerySchema>;

/** Frames a log or exec socket sends to the browser. */
export const podStreamFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('data'), data: z.string(), channel: z.enum(['stdout', 'stderr']).optional() }),
  z.object({ type: z.literal('end'), error: z.string().optional() }),
]);
export type PodStreamFrame = z.infer<typeof podStreamFrameSchema>;
/** What the browser sends on an exec socket: keystrokes, or the terminal's size. */
export const podExecInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input'), data: z.string().max(65_536) }),
  z.object({
    type: z.literal('resize'),
    cols: z.number().int().min(1).max(1000),
    rows: z.number().int().min(1).max(1000),
  }),
]);
export type PodExecInput = z.infer<typeof podExecInputSchema>;
