import type { HealthResponse, ReadyResponse } from '@slipway/contracts';
import { api } from '../../app/api';

export const systemApi = api.injectEndpoints({
  endpoints: (build) => ({
    health: build.query<HealthResponse, void>({ query: () => 'healthz' }),
    /** 503 also carries a readiness document; it is returned as the error's data. */
    readiness: build.query<ReadyResponse, void>({ query: () => 'readyz' }),
  }),
});

export const { useHealthQuery, useReadinessQuery } = systemApi;
