import type {
  AppTemplate,
  QuickSetupCreate,
  QuickSetupRegistries,
  QuickSetupRepository,
  QuickSetupResult,
} from '@slipway/contracts';
import { api } from '../../app/api';

/** What the one quick setup call makes, whose lists it changes. */
const MADE = [
  'Application',
  'Repository',
  'Pipeline',
  'PipelineRun',
  'Secret',
  'QuickSetupRepository',
] as const;

/**
 * Quick setup (spec §1, §7): the app templates, where the code and the images may go, and the one
 * call that makes a repository, its credentials, a pipeline and an application from a template and
 * starts the first run.
 */
export const quickSetupApi = api.enhanceEndpoints({ addTagTypes: MADE }).injectEndpoints({
  endpoints: (build) => ({
    appTemplates: build.query<AppTemplate[], void>({ query: () => 'admin/appaccelerator/types' }),
    quickSetupRepositories: build.query<QuickSetupRepository[], void>({
      query: () => 'admin/quicksetup/repositories',
      providesTags: [{ type: 'QuickSetupRepository', id: 'LIST' }],
    }),
    quickSetupRegistries: build.query<QuickSetupRegistries, void>({
      query: () => 'admin/quicksetup/registries',
    }),
    createQuickSetup: build.mutation<QuickSetupResult, { templateId: string; body: QuickSetupCreate }>({
      query: ({ templateId, body }) => ({
        url: 'admin/quicksetup/createonboardingresources',
        method: 'POST',
        params: { id: templateId },
        body,
      }),
      invalidatesTags: MADE.map((type) => ({ type, id: 'LIST' })),
    }),
  }),
});

export const {
  useAppTemplatesQuery,
  useQuickSetupRepositoriesQuery,
  useQuickSetupRegistriesQuery,
  useCreateQuickSetupMutation,
} = quickSetupApi;
