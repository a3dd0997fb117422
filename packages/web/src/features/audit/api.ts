import type { AuditEventView } from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf } from '../../app/page';

export interface AuditPage {
  events: AuditEventView[];
  total: number;
}

/** The audit trail (`/api/audit`), a page at a time; X-Total-Count has the number of events. */
export const auditApi = api.enhanceEndpoints({ addTagTypes: ['Audit'] }).injectEndpoints({
  endpoints: (build) => ({
    auditEvents: build.query<AuditPage, Record<string, string>>({
      query: (params) => ({ url: 'audit', params }),
      transformResponse: (events: AuditEventView[], meta) => ({
        events,
        total: totalOf(meta, events.length),
      }),
      providesTags: ['Audit'],
    }),
  }),
});

export const { useAuditEventsQuery } = auditApi;
