import type { z } from 'zod';
import type { SsoSettingsRequest, SsoSettingsResponse, ssoTestResponseSchema } from '@slipway/contracts';
import { api } from '../../app/api';

export type SsoTestResult = z.infer<typeof ssoTestResponseSchema>;

/** Enterprise single sign-on (LDAP) settings of the organisation (`/api/sso`). */
export const ssoApi = api.enhanceEndpoints({ addTagTypes: ['Sso'] }).injectEndpoints({
  endpoints: (build) => ({
    ssoSettings: build.query<SsoSettingsResponse, void>({
      query: () => 'sso/settings',
      providesTags: ['Sso'],
    }),
    saveSsoSettings: build.mutation<SsoSettingsResponse, SsoSettingsRequest>({
      query: (body) => ({ url: 'sso/settings', method: 'PUT', body }),
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(ssoApi.util.upsertQueryData('ssoSettings', undefined, data));
      },
    }),
    testSso: build.mutation<SsoTestResult, Partial<SsoSettingsRequest> | null>({
      query: (body) => ({ url: 'sso/test', method: 'POST', body: body ?? {} }),
    }),
  }),
});

export const { useSsoSettingsQuery, useSaveSsoSettingsMutation, useTestSsoMutation } = ssoApi;
