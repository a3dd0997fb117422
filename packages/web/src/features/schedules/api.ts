import type { Schedule, ScheduleCreate, ScheduleUpdate } from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

/** Schedules (`/api/schedules`). */
export const schedulesApi = api.enhanceEndpoints({ addTagTypes: ['Schedule'] }).injectEndpoints({
  endpoints: (build) =>
    resourceEndpoints<{ row: Schedule; create: ScheduleCreate; update: ScheduleUpdate }>()(build, {
      name: 'schedule',
      url: 'schedules',
      ops: ['list', 'create', 'update', 'delete'],
    }),
});

export const {
  useSchedulesQuery,
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
  useDeleteScheduleMutation,
} = schedulesApi;
