import type {
  Application,
  ApplicationCreate,
  ApplicationDetail,
  ApplicationUpdate,
  Repository,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

export interface ServiceType {
  id: number;
  name: string;
  description: string;
}

/** Applications (`/api/applications`), the Service types they may use and the repositories they build from. */
export const applicationsApi = api
  .enhanceEndpoints({ addTagTypes: ['Application', 'Repository'] })
  .injectEndpoints({
    endpoints: (build) => ({
      ...resourceEndpoints<{
        row: Application;
        detail: ApplicationDetail;
        create: ApplicationCreate;
        update: ApplicationUpdate;
      }>()(build, {
        name: 'application',
        url: 'applications',
        ops: ['list', 'get', 'create', 'update', 'delete'],
      }),
      // spec §7: GET /admin/app/k8servicetypes?_end=100&_order&_sort&_start
      serviceTypes: build.query<ServiceType[], void>({
        query: () => ({
          url: 'admin/app/k8servicetypes',
          params: { _start: '0', _end: '100', _sort: 'id', _order: 'ASC' },
        }),
      }),
      // spec §7: GET /admin/repository (_end defaults to 10; the wizard asks for a longer page)
      repositories: build.query<Repository[], void>({
        query: () => ({ url: 'admin/repository', params: { _start: '0', _end: '100', _sort: 'name' } }),
        providesTags: [{ type: 'Repository', id: 'LIST' }],
      }),
    }),
  });

export const {
  useApplicationsQuery,
  useApplicationQuery,
  useCreateApplicationMutation,
  useUpdateApplicationMutation,
  useDeleteApplicationMutation,
  useServiceTypesQuery,
  useRepositoriesQuery,
} = applicationsApi;
