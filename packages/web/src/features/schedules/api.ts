import type { Schedule, ScheduleCreate, ScheduleUpdate } from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

/** Schedules (`/api/schedules`). */
export const schedulesApi = api.enhanceEndpoints({ addTagTypes: ['Schedule'] }).injectEndpoints({
  endpoints: (build) => ({
    schedules: build.query<Page<Schedule>, Record<string, string>>({
      query: (params) => ({ url: 'schedules', params }),
      transformResponse: (rows: Schedule[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      providesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    createSchedule: build.mutation<Schedule, ScheduleCreate>({
      query: (body) => ({ url: 'schedules', method: 'POST', body }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    updateSchedule: build.mutation<Schedule, { id: string; body: ScheduleUpdate }>({
      query: ({ id, body }) => ({ url: `schedules/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
    deleteSchedule: build.mutation<void, string>({
      query: (id) => ({ url: `schedules/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Schedule', id: 'LIST' }],
    }),
  }),
});

export const {
  useSchedulesQuery,
  useCreateScheduleMutation,
  useUpdateScheduleMutation,
  useDeleteScheduleMutation,
} = schedulesApi;
