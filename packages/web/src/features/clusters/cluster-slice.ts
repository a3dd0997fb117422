import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_INSTALLED_RESOURCES, LIMITED_AGENT_DEFAULT_NAMESPACES } from '@slipway/contracts';

/** Which installable resources (by id) a cluster has: id → installed. */
export type InstalledResources = Record<number, boolean>;

export function installedResourcesOf(ids: readonly number[]): InstalledResources {
  return Object.fromEntries(ids.map((id) => [id, true]));
}

export interface ClusterSetup {
  id: string | number | null;
  env: string | null;
  installedResources: InstalledResources;
}

export interface ExternalLogging {
  enabled: boolean;
  provider_id: string | number | null;
  cluster_name: string | null;
}

/** cluster (spec §3). */
export interface ClusterState {
  setup: ClusterSetup;
  custom: ClusterSetup & Record<string, unknown>;
  defaultCluster: ClusterSetup & {
    limitedAgent: { limitedAgentPermission: boolean; allowedNamespaces: string[] };
    extlogging: {
      type: string | null;
      dynatraceLogging: ExternalLogging;
      newrelicLogging: ExternalLogging;
    };
    selectedNamespaces: string[];
  };
}

const noLogging: ExternalLogging = { enabled: false, provider_id: null, cluster_name: null };

export const initialClusterState: ClusterState = {
  setup: { id: null, env: null, installedResources: installedResourcesOf(DEFAULT_INSTALLED_RESOURCES.setup) },
  custom: {
    id: null,
    env: null,
    installedResources: installedResourcesOf(DEFAULT_INSTALLED_RESOURCES.custom),
  },
  defaultCluster: {
    id: null,
    env: null,
    installedResources: installedResourcesOf(DEFAULT_INSTALLED_RESOURCES.defaultCluster),
    limitedAgent: { limitedAgentPermission: false, allowedNamespaces: [...LIMITED_AGENT_DEFAULT_NAMESPACES] },
    extlogging: { type: null, dynatraceLogging: { ...noLogging }, newrelicLogging: { ...noLogging } },
    selectedNamespaces: [],
  },
};

type Section = keyof ClusterState;

export const clusterSlice = createSlice({
  name: 'cluster',
  initialState: initialClusterState,
  reducers: {
    clusterSectionUpdated(
      state,
      action: PayloadAction<{ section: Section; patch: Record<string, unknown> }>,
    ) {
      Object.assign(state[action.payload.section], action.payload.patch);
    },
    resourceInstalledSet(state, action: PayloadAction<{ section: Section; id: number; installed: boolean }>) {
      state[action.payload.section].installedResources[action.payload.id] = action.payload.installed;
    },
    clusterReset() {
      return initialClusterState;
    },
  },
});

export const { clusterSectionUpdated, resourceInstalledSet, clusterReset } = clusterSlice.actions;
