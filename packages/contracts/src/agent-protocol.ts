import { z } from 'zod';

/**
 * The wire protocol between the server's agent gateway and the in-cluster agent.
 *
 * The agent dials `ws(s)://<server>/api/agent/connect` with `Authorization: Bearer <cluster token>`.
 * Every WebSocket message is one JSON text frame holding one message below, told apart by `type`.
 *
 * agent → server: hello (first), heartbeat, reply, frame
 * server → agent: welcome (answer to hello), heartbeat_ack, command, stream_input, cancel
 *
 * Requests carry an id and a deadline (epoch milliseconds); the agent answers each with one reply.
 * Stream commands (logs, exec, watch) answer with frames numbered from 1; the last frame has
 * `end: true` (and `error` when the stream failed). After a reconnect the agent lists the streams
 * it still runs in its hello; the server answers with the last frame it received of each stream it
 * still wants, and the agent sends the frames after it again.
 */
export const AGENT_PROTOCOL_VERSION = 1;
export const AGENT_CONNECT_PATH = '/api/agent/connect';
export const AGENT_DEFAULT_HEARTBEAT_SECONDS = 30;
/** A cluster is not active after this many missed heartbeats (issue 5). */
export const AGENT_MISSED_HEARTBEATS_LIMIT = 3;
export const AGENT_DEFAULT_ALLOWED_NAMESPACES = ['ozone'];
/**
 * The field manager of every server-side apply Slipway makes (deploys and task pods alike);
 * `slipway-<purpose>` names are reserved for Slipway too and count as its own in conflicts.
 */
export const AGENT_FIELD_MANAGER = 'slipway';

/** WebSocket close codes the gateway uses (4000–4999 are the application's). */
export const AGENT_CLOSE_CODES = {
  /** the token is unknown or revoked */
  unauthorised: 4001,
  /** the agent speaks a protocol version the server does not */
  protocolMismatch: 4002,
  /** the first message was not a valid hello, or a message was malformed */
  badMessage: 4003,
  /** the server disconnected the agent on purpose (detach, replaced by a newer connection) */
  disconnected: 4004,
} as const;

/** Agent errors reported to callers, with stable codes. */
export const AGENT_ERROR_CODES = [
  'not_connected',
  'timeout',
  'forbidden_namespace',
  'not_found',
  'invalid',
  'conflict',
  'kubernetes',
  'unsupported',
  'internal',
] as const;
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];
/** The spec's message (§8) when a cluster's agent is not connected. */
export const AGENT_NOT_ACTIVE_MESSAGE = 'Agent not active';

export const agentErrorSchema = z.object({
  code: z.enum(AGENT_ERROR_CODES),
  message: z.string(),
});
export type AgentError = z.infer<typeof agentErrorSchema>;

export const storageClassSchema = z.object({
  name: z.string(),
  provisioner: z.string(),
  reclaimPolicy: z.string(),
  bindingMode: z.string(),
  default: z.boolean(),
});
export type StorageClassInfo = z.infer<typeof storageClassSchema>;

/** Facts about the cluster, sent in the hello (and again when they change). */
export const clusterFactsSchema = z.object({
  kubernetesVersion: z.string(),
  nodeCount: z.number().int().nonnegative(),
  totalVcpu: z.number().nonnegative(),
  namespaces: z.array(z.string()),
  /** add-ons found through discovery, by name: 'tekton', 'argocd', 'cert-manager', … */
  installedAddons: z.array(z.string()),
  storageClasses: z.array(storageClassSchema),
});
export type ClusterFacts = z.infer<typeof clusterFactsSchema>;

/** Add-ons the agent recognises by the API groups they serve. */
export const AGENT_ADDON_GROUPS: Record<string, string> = {
  'tekton.dev': 'tekton',
  'argoproj.io': 'argocd',
  'cert-manager.io': 'cert-manager',
  'monitoring.coreos.com': 'prometheus-operator',
  'networking.istio.io': 'istio',
  'keda.sh': 'keda',
  'velero.io': 'velero',
  'snapshot.storage.k8s.io': 'volume-snapshots',
  'metrics.k8s.io': 'metrics-server',
};

export const helloSchema = clusterFactsSchema.extend({
  type: z.literal('hello'),
  protocolVersion: z.number().int().positive(),
  agentVersion: z.string(),
  limited: z.boolean(),
  allowedNamespaces: z.array(z.string()),
  /** how often the agent sends a heartbeat */
  heartbeatSeconds: z.number().positive().default(AGENT_DEFAULT_HEARTBEAT_SECONDS),
  /** streams the agent still runs from before a reconnect */
  openStreams: z.array(z.string()).default([]),
});
export type AgentHello = z.infer<typeof helloSchema>;

export const heartbeatSchema = z.object({
  type: z.literal('heartbeat'),
  seq: z.number().int().nonnegative(),
  /** the agent's clock, ISO 8601 */
  at: z.string(),
  /** commands and streams in progress */
  activeCommands: z.number().int().nonnegative().optional(),
  activeStreams: z.number().int().nonnegative().optional(),
});
export type AgentHeartbeat = z.infer<typeof heartbeatSchema>;

export const replySchema = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(false), error: agentErrorSchema }),
]);
export type AgentReply = z.infer<typeof replySchema>;

export const streamFrameSchema = z.object({
  type: z.literal('frame'),
  id: z.string(),
  /** 1, 2, 3, … per stream */
  seq: z.number().int().positive(),
  /** text for logs and exec output, a JSON event for watch */
  data: z.unknown().optional(),
  /** for exec: which output the data came from */
  channel: z.enum(['stdout', 'stderr', 'status']).optional(),
  end: z.boolean().optional(),
  error: agentErrorSchema.optional(),
});
export type AgentStreamFrame = z.infer<typeof streamFrameSchema>;

export const agentMessageSchema = z.discriminatedUnion('type', [
  helloSchema,
  heartbeatSchema,
  z.object({
    type: z.literal('reply'),
    id: z.string(),
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: agentErrorSchema.optional(),
  }),
  streamFrameSchema,
]);
export type AgentMessage = AgentHello | AgentHeartbeat | AgentReply | AgentStreamFrame;

// ---- commands ----

const objectRef = {
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().min(1).optional(),
};
export const resourceRefSchema = z.object(objectRef);
export type ResourceRef = z.infer<typeof resourceRefSchema>;

/** A Kubernetes object as plain JSON, with at least apiVersion, kind and metadata.name. */
export const kubernetesObjectSchema = z
  .object({
    apiVersion: z.string().min(1),
    kind: z.string().min(1),
    metadata: z.object({ name: z.string().min(1), namespace: z.string().optional() }).loose(),
  })
  .loose();
export type KubernetesObject = z.infer<typeof kubernetesObjectSchema>;

export const applyArgsSchema = z.object({
  /** objects to apply with server-side apply, in order */
  manifests: z.array(kubernetesObjectSchema).min(1),
  /** the namespace for namespaced objects that name none */
  namespace: z.string().min(1).optional(),
  /**
   * false (the default): conflicts are settled as Argo CD does — fields Slipway owns are taken
   * back, a field another manager owns fails the apply naming it. true: take every field.
   */
  force: z.boolean().default(false),
  dryRun: z.boolean().default(false),
});
export const deleteArgsSchema = resourceRefSchema.extend({
  propagationPolicy: z.enum(['Foreground', 'Background', 'Orphan']).optional(),
});
export const getArgsSchema = resourceRefSchema;
export const listArgsSchema = z.object({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  namespace: z.string().min(1).optional(),
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
  limit: z.number().int().positive().optional(),
  continue: z.string().optional(),
});
export const emptyArgsSchema = z.object({}).default({});
export const eventsArgsSchema = z.object({
  namespace: z.string().min(1).optional(),
  /** only events about this object */
  involvedObject: z.object({ kind: z.string(), name: z.string() }).optional(),
  limit: z.number().int().positive().optional(),
});
export const healthArgsSchema = z.object({ resources: z.array(resourceRefSchema).min(1) });
export const logsArgsSchema = z.object({
  namespace: z.string().min(1),
  pod: z.string().min(1),
  container: z.string().min(1).optional(),
  follow: z.boolean().default(false),
  tailLines: z.number().int().positive().optional(),
  sinceSeconds: z.number().int().positive().optional(),
  timestamps: z.boolean().default(false),
});
export const execArgsSchema = z.object({
  namespace: z.string().min(1),
  pod: z.string().min(1),
  container: z.string().min(1).optional(),
  command: z.array(z.string()).min(1).default(['/bin/sh']),
  tty: z.boolean().default(true),
});
export const watchArgsSchema = listArgsSchema.omit({ limit: true, continue: true }).extend({
  resourceVersion: z.string().optional(),
});

/** Request/reply commands: the agent answers with one reply. */
export const agentCommandSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('apply'), args: applyArgsSchema }),
  z.object({ kind: z.literal('delete'), args: deleteArgsSchema }),
  z.object({ kind: z.literal('get'), args: getArgsSchema }),
  z.object({ kind: z.literal('list'), args: listArgsSchema }),
  /** the kinds the cluster serves, through discovery (the dynamic resources browser) */
  z.object({ kind: z.literal('resources'), args: emptyArgsSchema }),
  z.object({ kind: z.literal('namespaces'), args: emptyArgsSchema }),
  z.object({ kind: z.literal('events'), args: eventsArgsSchema }),
  z.object({ kind: z.literal('health'), args: healthArgsSchema }),
  /** fresh cluster facts (same shape as the hello's) */
  z.object({ kind: z.literal('facts'), args: emptyArgsSchema }),
]);
export type AgentCommand = z.input<typeof agentCommandSchema>;
export type AgentCommandParsed = z.output<typeof agentCommandSchema>;
export type AgentCommandKind = AgentCommandParsed['kind'];

/** Stream commands: the agent answers with frames. */
export const agentStreamCommandSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('logs'), args: logsArgsSchema }),
  z.object({ kind: z.literal('exec'), args: execArgsSchema }),
  z.object({ kind: z.literal('watch'), args: watchArgsSchema }),
]);
export type AgentStreamCommand = z.input<typeof agentStreamCommandSchema>;
export type AgentStreamCommandParsed = z.output<typeof agentStreamCommandSchema>;

export const commandMessageSchema = z.object({
  type: z.literal('command'),
  id: z.string().min(1),
  /** epoch milliseconds after which the caller no longer waits */
  deadline: z.number().int(),
  stream: z.boolean().default(false),
  kind: z.string(),
  args: z.unknown(),
});
export type CommandMessage = z.input<typeof commandMessageSchema>;

export const welcomeSchema = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int().positive(),
  clusterId: z.string(),
  /** streams to resume: the agent sends the frames after `afterSeq` again and drops the others */
  resume: z.array(z.object({ id: z.string(), afterSeq: z.number().int().nonnegative() })).default([]),
});
export type AgentWelcome = z.input<typeof welcomeSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  welcomeSchema,
  z.object({ type: z.literal('heartbeat_ack'), seq: z.number().int().nonnegative() }),
  commandMessageSchema,
  /** exec stdin (data) or terminal size (cols, rows) */
  z.object({
    type: z.literal('stream_input'),
    id: z.string(),
    data: z.string().optional(),
    resize: z.object({ cols: z.number().int().positive(), rows: z.number().int().positive() }).optional(),
  }),
  /** stop a stream or abandon a command */
  z.object({ type: z.literal('cancel'), id: z.string() }),
]);
export type ServerMessage = z.input<typeof serverMessageSchema>;

// ---- results ----

export const HEALTH_STATUSES = [
  'healthy',
  'progressing',
  'degraded',
  'suspended',
  'missing',
  'unknown',
] as const;
export type HealthStatusCode = (typeof HEALTH_STATUSES)[number];
export const healthSchema = z.object({ status: z.enum(HEALTH_STATUSES), message: z.string().optional() });
export type ResourceHealth = z.infer<typeof healthSchema>;

export const applyResultSchema = z.object({
  applied: z.array(
    resourceRefSchema.extend({
      uid: z.string().optional(),
      resourceVersion: z.string().optional(),
      /** fields Slipway took back with force from its own managers (a conflict it may settle) */
      tookBack: z.array(z.object({ field: z.string(), manager: z.string() })).optional(),
    }),
  ),
});
export const deleteResultSchema = z.object({ deleted: z.boolean() });
export const getResultSchema = z.object({ object: kubernetesObjectSchema });
export const listResultSchema = z.object({
  items: z.array(kubernetesObjectSchema),
  continue: z.string().optional(),
  resourceVersion: z.string().optional(),
});
export const apiResourceSchema = z.object({
  group: z.string(),
  version: z.string(),
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  namespaced: z.boolean(),
  verbs: z.array(z.string()),
});
export type ApiResourceInfo = z.infer<typeof apiResourceSchema>;
export const resourcesResultSchema = z.object({ resources: z.array(apiResourceSchema) });
export const namespacesResultSchema = z.object({ namespaces: z.array(z.string()) });
export const eventSchema = z.object({
  namespace: z.string().optional(),
  type: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  involvedObject: z.object({ kind: z.string().optional(), name: z.string().optional() }).optional(),
  count: z.number().optional(),
  lastTimestamp: z.string().optional(),
});
export const eventsResultSchema = z.object({ events: z.array(eventSchema) });
export const healthResultSchema = z.object({
  status: z.enum(HEALTH_STATUSES),
  resources: z.array(resourceRefSchema.extend({ health: healthSchema })),
});
export type HealthResult = z.infer<typeof healthResultSchema>;
export const factsResultSchema = clusterFactsSchema;

/** What each command kind answers with. */
export interface AgentResults {
  apply: z.infer<typeof applyResultSchema>;
  delete: z.infer<typeof deleteResultSchema>;
  get: z.infer<typeof getResultSchema>;
  list: z.infer<typeof listResultSchema>;
  resources: z.infer<typeof resourcesResultSchema>;
  namespaces: z.infer<typeof namespacesResultSchema>;
  events: z.infer<typeof eventsResultSchema>;
  health: HealthResult;
  facts: ClusterFacts;
}
/** The `result` of a successful reply (narrow it with the command's kind: AgentResults[kind]). */
export type AgentReplyResult = AgentResults[keyof AgentResults];

/** Messages on a watch stream's frames. */
export const watchEventSchema = z.object({
  type: z.enum(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']),
  object: z.record(z.string(), z.unknown()),
});
export type WatchEvent = z.infer<typeof watchEventSchema>;
