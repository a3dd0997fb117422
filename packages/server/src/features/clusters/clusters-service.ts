import { randomUUID } from 'node:crypto';
import {
  addOnIdsOf,
  CLUSTER_STATUSES,
  CLUSTER_TYPES,
  clusterCreateSchema,
  type Cluster,
  type ClusterAttach,
  type ClusterCreate,
  type ClusterCreated,
  type ClusterListQuery,
  type ClusterStatus,
  type ClusterType,
  type StorageOption,
} from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import { NamedRowsService } from '../../platform/named-rows.js';
import { hashToken, randomToken } from '../../platform/keys.js';
import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { attachCommand, attachFileName, attachYaml } from './attach-manifest.js';
import type { ClusterRow } from './clusters-store.js';
import type { ClustersStore } from './clusters-store-type.js';

export const CLUSTER_NAME_TAKEN = 'A cluster with this name already exists';
export const CLUSTER_NOT_FOUND = 'Cluster not found';
/** Agent tokens start with this, so a leaked one is easy to recognise and search for. */
export const AGENT_TOKEN_PREFIX = 'slpa_';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** installed_resources holds catalogue ids; add-on names (as the agent reports them) are mapped. */
function installedIds(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  const ids = v.filter((x): x is number => typeof x === 'number' && Number.isInteger(x));
  return [...new Set([...ids, ...addOnIdsOf(strings(v))])].sort((a, b) => a - b);
}

function storageOptions(v: unknown): StorageOption[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null)
    .map((s) => ({
      name: String(s.name ?? ''),
      provisioner: String(s.provisioner ?? ''),
      reclaimPolicy: String(s.reclaimPolicy ?? ''),
      bindingMode: String(s.bindingMode ?? s.volumeBindingMode ?? ''),
      default: Boolean(s.default),
    }));
}

export function toCluster(row: ClusterRow): Cluster {
  return {
    id: row.id,
    name: row.name,
    type: (CLUSTER_TYPES as readonly string[]).includes(row.type) ? (row.type as ClusterType) : 'other',
    private: row.private,
    tunnelConfig: row.tunnelConfig,
    publicRegistryPrefix: row.publicRegistryPrefix,
    limitedAgentPermission: row.limitedAgentPermission,
    allowedNamespaces: strings(row.allowedNamespaces),
    selectedNamespaces: strings(row.selectedNamespaces),
    status: (CLUSTER_STATUSES as readonly string[]).includes(row.status)
      ? (row.status as ClusterStatus)
      : 'not_active',
    statusMessage: row.statusMessage,
    tokenPrefix: row.tokenPrefix,
    agentVersion: row.agentVersion,
    kubernetesVersion: row.kubernetesVersion,
    nodeCount: row.nodeCount,
    totalVcpu: row.totalVcpu,
    namespaces: strings(row.namespaces),
    installedResources: installedIds(row.installedResources),
    storageOptions: storageOptions(row.storageOptions),
    lastHeartbeatAt: iso(row.lastHeartbeatAt),
    connectedAt: iso(row.connectedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface ClustersServiceOptions {
  /** the address agents dial out to (SLIPWAY_PUBLIC_URL) */
  publicUrl: string;
  /** the agent's container image in the attach YAML */
  agentImage: string;
  gateway: AgentGateway | null;
}

/**
 * Clusters: configure, connect (an attach manifest holding a fresh agent token, of which only the
 * hash is kept), choose namespaces for logs, detach (the token is revoked and the agent cut off).
 */
export class ClustersService extends NamedRowsService<ClusterRow, Cluster> {
  constructor(
    private readonly store: ClustersStore,
    private readonly options: ClustersServiceOptions,
  ) {
    super(store, { notFound: CLUSTER_NOT_FOUND, nameTaken: CLUSTER_NAME_TAKEN }, toCluster);
  }

  async list(workspaceId: string, query: ClusterListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toCluster), total };
  }

  async create(workspaceId: string, given: ClusterCreate, createdBy: string | null): Promise<ClusterCreated> {
    const input = clusterCreateSchema.parse(given);
    await this.rows.checkName(workspaceId, input.name);
    const id = randomUUID();
    const token = this.newToken();
    await this.rows.write(() =>
      this.store.insert({
        id,
        workspaceId,
        name: input.name,
        type: input.type,
        private: input.private,
        tunnelConfig: input.private ? (input.tunnelConfig ?? null) : null,
        publicRegistryPrefix: input.publicRegistryPrefix,
        limitedAgentPermission: input.limitedAgentPermission,
        allowedNamespaces: input.allowedNamespaces,
        status: 'attaching',
        tokenHash: hashToken(token),
        tokenPrefix: token.slice(0, AGENT_TOKEN_PREFIX.length + 6),
        createdBy,
      }),
    );
    const row = await this.require(workspaceId, id);
    return { cluster: toCluster(row), attach: this.attachBundle(row, token) };
  }

  /**
   * A new attach manifest for attaching (again): a fresh token replaces the old one, whose agent is
   * cut off, and the cluster waits for its heartbeat. A detached cluster can be attached again.
   */
  async reattach(workspaceId: string, id: string): Promise<ClusterAttach> {
    const row = await this.require(workspaceId, id);
    const token = this.newToken();
    await this.store.update(id, {
      tokenHash: hashToken(token),
      tokenPrefix: token.slice(0, AGENT_TOKEN_PREFIX.length + 6),
      tokenRevokedAt: null,
      status: 'attaching',
      statusMessage: null,
    });
    this.options.gateway?.disconnect(id, 'a new agent token was issued');
    return this.attachBundle(row, token);
  }

  /** Namespaces whose logs are collected: ones the cluster has, and within a limited agent's. */
  async setSelectedNamespaces(workspaceId: string, id: string, selected: string[]): Promise<Cluster> {
    const row = await this.require(workspaceId, id);
    const known = strings(row.namespaces);
    const allowed = strings(row.allowedNamespaces);
    selected.forEach((ns, i) => {
      const path = `body.selectedNamespaces.${i}`;
      if (row.limitedAgentPermission && !allowed.includes(ns))
        throw new InputError(`selectedNamespaces: ${ns} is not an allowed namespace of this limited agent`, [
          { path, message: `${ns} is not an allowed namespace of this limited agent` },
        ]);
      if (known.length > 0 && !known.includes(ns))
        throw new InputError(`selectedNamespaces: ${ns} is not a namespace of this cluster`, [
          { path, message: `${ns} is not a namespace of this cluster` },
        ]);
    });
    await this.store.update(id, { selectedNamespaces: selected });
    return this.get(workspaceId, id);
  }

  /** Revokes the token, marks the cluster detached and closes the agent's connection. */
  async detach(workspaceId: string, id: string): Promise<Cluster> {
    await this.require(workspaceId, id);
    await this.store.update(id, { tokenRevokedAt: new Date(), status: 'detached', statusMessage: null });
    this.options.gateway?.disconnect(id, 'the cluster was detached');
    return this.get(workspaceId, id);
  }

  /** Detaches and forgets the cluster; its environments keep their names, without a cluster. */
  override async remove(workspaceId: string, id: string): Promise<void> {
    await this.require(workspaceId, id);
    await this.store.update(id, { tokenRevokedAt: new Date(), status: 'detached' });
    this.options.gateway?.disconnect(id, 'the cluster was removed');
    await this.store.delete(id);
  }

  /** The workspace's cluster of that id, or a 404. */
  async require(workspaceId: string, id: string): Promise<ClusterRow> {
    return this.rows.require(workspaceId, id);
  }

  private newToken(): string {
    return `${AGENT_TOKEN_PREFIX}${randomToken(32)}`;
  }

  private attachBundle(row: ClusterRow, token: string): ClusterAttach {
    const fileName = attachFileName(row.name);
    return {
      fileName,
      yaml: attachYaml({
        clusterId: row.id,
        clusterName: row.name,
        token,
        serverUrl: this.options.publicUrl,
        image: this.options.agentImage,
        limitedAgentPermission: row.limitedAgentPermission,
        allowedNamespaces: strings(row.allowedNamespaces),
      }),
      command: attachCommand(fileName),
      tokenPrefix: token.slice(0, AGENT_TOKEN_PREFIX.length + 6),
      serverUrl: this.options.publicUrl,
    };
  }
}
