import {
  type Cluster,
  type ClusterAttach,
  type ClusterCreate,
  type ClusterCreated,
  type ClusterResourceDetail,
  type ClusterResourceKind,
  type ClusterResourceListQuery,
  type ClusterResourceQuery,
  type ClusterResourceSummary,
  type PodLogsQuery,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

const path = (id: string, action?: string) =>
  `clusters/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** Clusters (`/api/clusters`): configure, attach, namespaces for logs, detach. */
export const clustersApi = api.enhanceEndpoints({ addTagTypes: ['Cluster'] }).injectEndpoints({
  endpoints: (build) => ({
    ...resourceEndpoints<{ row: Cluster; created: ClusterCreated; create: ClusterCreate }>()(build, {
      name: 'cluster',
      url: 'clusters',
      ops: ['list', 'get', 'create'],
    }),
    reattachCluster: build.mutation<ClusterAttach, string>({
      query: (id) => ({ url: path(id, 'attach'), method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'Cluster', id },
        { type: 'Cluster', id: 'LIST' },
      ],
    }),
    setClusterNamespaces: build.mutation<Cluster, { id: string; selectedNamespaces: string[] }>({
      query: ({ id, selectedNamespaces }) => ({
        url: path(id, 'namespaces'),
        method: 'PUT',
        body: { selectedNamespaces },
      }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Cluster', id }],
    }),
    detachCluster: build.mutation<Cluster, string>({
      query: (id) => ({ url: path(id, 'detach'), method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'Cluster', id },
        { type: 'Cluster', id: 'LIST' },
      ],
    }),
    clusterKinds: build.query<ClusterResourceKind[], string>({
      query: (id) => path(id, 'kinds'),
      keepUnusedDataFor: 300,
    }),
    clusterResources: build.query<ClusterResourceSummary[], { id: string } & ClusterResourceListQuery>({
      query: ({ id, ...params }) => ({ url: path(id, 'resources'), params }),
      keepUnusedDataFor: 0,
    }),
    clusterResource: build.query<ClusterResourceDetail, { id: string } & ClusterResourceQuery>({
      query: ({ id, ...params }) => ({ url: path(id, 'resource'), params }),
      keepUnusedDataFor: 0,
    }),
    podLogs: build.query<string, { id: string } & PodLogsQuery>({
      query: ({ id, ...params }) => ({ url: path(id, 'logs'), params, responseHandler: 'text' }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useClusterKindsQuery,
  useClusterResourcesQuery,
  useClusterResourceQuery,
  usePodLogsQuery,
  useClustersQuery,
  useClusterQuery,
  useLazyClusterQuery,
  useCreateClusterMutation,
  useReattachClusterMutation,
  useSetClusterNamespacesMutation,
  useDetachClusterMutation,
} = clustersApi;
