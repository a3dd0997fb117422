import type { RegistryImage, RegistryInfo, RegistryTag } from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

const IMAGES = { type: 'RegistryImage', id: 'LIST' } as const;

/**
 * Slipway's own registry as the Registries page reads it (decision 031): where the workspace's
 * images go (`/api/registry`), its images (`/api/registry/images`, the list query) and one
 * image's tags (`/api/registry/images/tags?name=…`), and deleting a tag.
 */
export const registriesApi = api
  .enhanceEndpoints({ addTagTypes: ['RegistryImage', 'RegistryTag'] })
  .injectEndpoints({
    endpoints: (build) => ({
      registry: build.query<RegistryInfo, void>({ query: () => 'registry' }),
      registryImages: build.query<Page<RegistryImage>, Record<string, string>>({
        query: (params) => ({ url: 'registry/images', params }),
        transformResponse: (rows: RegistryImage[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
        providesTags: [IMAGES],
      }),
      registryTags: build.query<Page<RegistryTag>, { name: string; params: Record<string, string> }>({
        query: ({ name, params }) => ({ url: 'registry/images/tags', params: { ...params, name } }),
        transformResponse: (rows: RegistryTag[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
        providesTags: (_r, _e, { name }) => [{ type: 'RegistryTag', id: name }],
      }),
      deleteRegistryTag: build.mutation<void, { name: string; tag: string }>({
        query: ({ name, tag }) => ({ url: 'registry/images/tags', method: 'DELETE', params: { name, tag } }),
        // the image's tag count changes with its tags
        invalidatesTags: (_r, _e, { name }) => [{ type: 'RegistryTag', id: name }, IMAGES],
      }),
    }),
  });

export const {
  useRegistryQuery,
  useRegistryImagesQuery,
  useRegistryTagsQuery,
  useDeleteRegistryTagMutation,
} = registriesApi;
