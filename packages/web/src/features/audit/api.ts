import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { TOTAL_COUNT_HEADER, type AuditEventView } from '@slipway/contracts';
import { api } from '../../app/api';

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
        total: Number(
          (meta as FetchBaseQueryMeta | undefined)?.response?.headers.get(TOTAL_COUNT_HEADER) ??
            events.length,
        ),
      }),
      providesTags: ['Audit'],
    }),
  }),
});

export const { useAuditEventsQuery } = auditApi;
