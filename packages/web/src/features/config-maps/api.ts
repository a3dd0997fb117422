import type { ConfigMap, ConfigMapCreate, ConfigMapUpdate } from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

/** Config maps (`/api/config-maps`): plain key → value sets that pipeline steps read. */
export const configMapsApi = api.enhanceEndpoints({ addTagTypes: ['ConfigMap'] }).injectEndpoints({
  endpoints: (build) =>
    resourceEndpoints<{ row: ConfigMap; create: ConfigMapCreate; update: ConfigMapUpdate }>()(build, {
      name: 'configMap',
      url: 'config-maps',
      ops: ['list', 'create', 'update', 'delete'],
    }),
});

export const {
  useConfigMapsQuery,
  useCreateConfigMapMutation,
  useUpdateConfigMapMutation,
  useDeleteConfigMapMutation,
} = configMapsApi;
