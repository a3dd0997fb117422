import {
  type Secret,
  type SecretCreate,
  type SecretUpdate,
  type Variable,
  type VariableCreate,
  type VariableUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

/** Secrets (`/api/secrets`, values write-only) and variables (`/api/variables`). */
export const secretsApi = api.enhanceEndpoints({ addTagTypes: ['Secret', 'Variable'] }).injectEndpoints({
  endpoints: (build) => ({
    secrets: build.query<Page<Secret>, Record<string, string>>({
      query: (params) => ({ url: 'secrets', params }),
      transformResponse: (rows: Secret[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      providesTags: [{ type: 'Secret', id: 'LIST' }],
    }),
    createSecret: build.mutation<Secret, SecretCreate>({
      query: (body) => ({ url: 'secrets', method: 'POST', body }),
      invalidatesTags: [{ type: 'Secret', id: 'LIST' }],
    }),
    updateSecret: build.mutation<Secret, { id: string; body: SecretUpdate }>({
      query: ({ id, body }) => ({ url: `secrets/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'Secret', id: 'LIST' }],
    }),
    deleteSecret: build.mutation<void, string>({
      query: (id) => ({ url: `secrets/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Secret', id: 'LIST' }],
    }),
    variables: build.query<Variable[], void>({
      query: () => 'variables',
      providesTags: [{ type: 'Variable', id: 'LIST' }],
    }),
    createVariable: build.mutation<Variable, VariableCreate>({
      query: (body) => ({ url: 'variables', method: 'POST', body }),
      invalidatesTags: [{ type: 'Variable', id: 'LIST' }],
    }),
    updateVariable: build.mutation<Variable, { id: string; body: VariableUpdate }>({
      query: ({ id, body }) => ({ url: `variables/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'Variable', id: 'LIST' }],
    }),
    deleteVariable: build.mutation<void, string>({
      query: (id) => ({ url: `variables/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Variable', id: 'LIST' }],
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
