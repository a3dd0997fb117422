import {
  type Secret,
  type SecretCreate,
  type SecretUpdate,
  type Variable,
  type VariableCreate,
  type VariableUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

/** Secrets (`/api/secrets`, values write-only) and variables (`/api/variables`). */
export const secretsApi = api.enhanceEndpoints({ addTagTypes: ['Secret', 'Variable'] }).injectEndpoints({
  endpoints: (build) => ({
    ...resourceEndpoints<{ row: Secret; create: SecretCreate; update: SecretUpdate }>()(build, {
      name: 'secret',
      url: 'secrets',
      ops: ['list', 'create', 'update', 'delete'],
    }),
    ...resourceEndpoints<{ row: Variable; create: VariableCreate; update: VariableUpdate }>()(build, {
      name: 'variable',
      url: 'variables',
      ops: ['all', 'create', 'update', 'delete'],
    }),
  }),
});

export const {
  useSecretsQuery,
  useCreateSecretMutation,
  useUpdateSecretMutation,
  useDeleteSecretMutation,
  useVariablesQuery,
  useCreateVariableMutation,
  useUpdateVariableMutation,
  useDeleteVariableMutation,
} = secretsApi;
