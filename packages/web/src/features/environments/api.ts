import type {
  Environment,
  EnvironmentCreate,
  EnvironmentDetail,
  EnvironmentUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

/** Environments (`/api/environments`) and what is deployed in them. */
export const environmentsApi = api.enhanceEndpoints({ addTagTypes: ['Environment'] }).injectEndpoints({
  endpoints: (build) =>
    resourceEndpoints<{
      row: Environment;
      detail: EnvironmentDetail;
      create: EnvironmentCreate;
      update: EnvironmentUpdate;
    }>()(build, {
      name: 'environment',
      url: 'environments',
      ops: ['list', 'get', 'create', 'update', 'delete'],
    }),
});

export const {
  useEnvironmentsQuery,
  useEnvironmentQuery,
  useCreateEnvironmentMutation,
  useUpdateEnvironmentMutation,
  useDeleteEnvironmentMutation,
} = environmentsApi;
