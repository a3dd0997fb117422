import { boolean, doublePrecision, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, timestamps } from './columns.js';
import { workspaceNamed } from './identity.js';

/** Clusters (issue 5). */

/** A Kubernetes cluster attached through the in-cluster agent. */
export const clusters = pgTable(
  'clusters',
  {
    ...workspaceNamed(),
    /** eks | aks | gke | other */
    type: text('type').notNull(),
    private: boolean('private').notNull().default(false),
    tunnelConfig: text('tunnel_config'),
    publicRegistryPrefix: text('public_registry_prefix'),
    limitedAgentPermission: boolean('limited_agent_permission').notNull().default(false),
    allowedNamespaces: jsonb('allowed_namespaces').notNull().default(['ozone']),
    /** namespaces chosen for logs */
    selectedNamespaces: jsonb('selected_namespaces').notNull().default([]),
    /** in_creation | creation_failed | attaching | active | not_active | detached */
    status: text('status').notNull().default('attaching'),
    statusMessage: text('status_message'),
    /** the agent's token: only its hash, and a prefix to recognise it by */
    tokenHash: text('token_hash'),
    tokenPrefix: text('token_prefix'),
    tokenRevokedAt: at('token_revoked_at'),
    agentVersion: text('agent_version'),
    kubernetesVersion: text('kubernetes_version'),
    nodeCount: integer('node_count'),
    totalVcpu: doublePrecision('total_vcpu'),
    namespaces: jsonb('namespaces').notNull().default([]),
    /** add-on catalogue ids, e.g. [1, 3] */
    installedResources: jsonb('installed_resources').notNull().default([]),
    /** [{ name, provisioner, reclaimPolicy, bindingMode, default }] */
    storageOptions: jsonb('storage_options').notNull().default([]),
    lastHeartbeatAt: at('last_heartbeat_at'),
    /** the interval the agent said it heartbeats at (hello); three missed ones mean not active */
    heartbeatSeconds: integer('heartbeat_seconds').notNull().default(30),
    connectedAt: at('connected_at'),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('clusters_ws_name').on(t.workspaceId, t.name),
    uniqueIndex('clusters_token_hash').on(t.tokenHash),
  ],
);
