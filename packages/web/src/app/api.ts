import type { Dispatch } from '@reduxjs/toolkit';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { FETCH_CACHE, FETCH_TIMEOUT_MS } from '@slipway/contracts';
import { loggedOut, type AuthState } from '../features/auth/auth-slice';
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

/**
 * Endpoints whose 401 means "wrong password or code", not "your session ended": their 401 is
 * shown on the form instead of signing the user out.
 */
export const NO_SIGN_OUT_ON_401 = new Set([
  'login',
  'verifyCode',
  'changePassword',
  'logout',
  'acceptInvite',
]);

/**
 * The fetch layer with the session rule: when a call made with a token answers 401, the session
 * has ended (expired, revoked, other browser), so the user is signed out; the route guard then
 * sends them to the login page.
 */
export const sessionBaseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  queryApi,
  extraOptions,
) => {
  const sentToken = (queryApi.getState() as { auth: AuthState }).auth.token;
  const result = await baseQuery(args, queryApi, extraOptions);
  if (result.error?.status === 401 && sentToken && !NO_SIGN_OUT_ON_401.has(queryApi.endpoint)) {
    // Only end the session the call was made with, not one started since.
    if ((queryApi.getState() as { auth: AuthState }).auth.token === sentToken) endSession(queryApi.dispatch);
  }
  return result;
};

/** Signs out locally: clears the auth state (and the stored session) and every cached answer. */
export function endSession(dispatch: Dispatch) {
  dispatch(loggedOut());
  dispatch(api.util.resetApiState());
}

/** Features add their endpoints with `api.injectEndpoints` in `features/<area>/api.ts`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: sessionBaseQuery,
  keepUnusedDataFor: FETCH_CACHE.keepUnusedDataForSeconds,
  refetchOnFocus: FETCH_CACHE.refetchOnFocus,
  refetchOnReconnect: FETCH_CACHE.refetchOnReconnect,
  refetchOnMountOrArgChange: FETCH_CACHE.refetchOnMountOrArgChange,
  endpoints: () => ({}),
});
