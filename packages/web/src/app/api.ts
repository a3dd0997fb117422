import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { FETCH_CACHE, FETCH_TIMEOUT_MS } from '@slipway/contracts';
import type { AuthState } from '../features/auth/auth-slice';
import { apiBaseUrl } from './endpoints';

/** The common headers every backend call sends (spec §7): token, workspace, fingerprint. */
export function applyCommonHeaders(headers: Headers, auth: AuthState): Headers {
  if (auth.token) headers.set('authorization', auth.token);
  if (auth.projectId) headers.set('x-workspace-id', auth.projectId);
  if (auth.fingerprint) headers.set('X-BrowserFingerprint', auth.fingerprint);
  return headers;
}

/**
 * The one fetch layer. Errors come back as RTK Query's FETCH_ERROR, TIMEOUT_ERROR and
 * PARSING_ERROR, or the HTTP status of a non-2xx answer (spec §8).
 */
export const baseQuery = fetchBaseQuery({
  baseUrl: apiBaseUrl(),
  timeout: FETCH_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) =>
    applyCommonHeaders(headers, (getState() as { auth: AuthState }).auth),
});

/** Features add their endpoints with `api.injectEndpoints` in `features/<area>/api.ts`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: FETCH_CACHE.keepUnusedDataForSeconds,
  refetchOnFocus: FETCH_CACHE.refetchOnFocus,
  refetchOnReconnect: FETCH_CACHE.refetchOnReconnect,
  refetchOnMountOrArgChange: FETCH_CACHE.refetchOnMountOrArgChange,
  endpoints: () => ({}),
});
