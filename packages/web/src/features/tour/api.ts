import type { OnboardingStateInput, TourStatus } from '@slipway/contracts';
import { api } from '../../app/api';

/** admin/onboarding/{get,set}TourStatus (spec §7). Setting the status invalidates the cached one. */
export const tourApi = api.enhanceEndpoints({ addTagTypes: ['TourStatus'] }).injectEndpoints({
  endpoints: (build) => ({
    tourStatus: build.query<TourStatus, void>({
      query: () => 'admin/onboarding/getTourStatus',
      providesTags: ['TourStatus'],
    }),
    setTourStatus: build.mutation<TourStatus, OnboardingStateInput>({
      query: (Onboardingstate) => ({
        url: 'admin/onboarding/setTourStatus',
        method: 'POST',
        body: { Onboardingstate },
      }),
      invalidatesTags: ['TourStatus'],
    }),
  }),
});

export const { useTourStatusQuery, useSetTourStatusMutation } = tourApi;
