import type { OnboardingStateInput, TourStatus } from '@slipway/contracts';
import type { FetchBaseQueryError, QueryReturnValue } from '@reduxjs/toolkit/query';
import { api } from '../../app/api';

let lastWrite: Promise<unknown> = Promise.resolve();

/** admin/onboarding/{get,set}TourStatus (spec §7). Setting the status invalidates the cached one. */
export const tourApi = api.enhanceEndpoints({ addTagTypes: ['TourStatus'] }).injectEndpoints({
  endpoints: (build) => ({
    tourStatus: build.query<TourStatus, void>({
      query: () => 'admin/onboarding/getTourStatus',
      providesTags: ['TourStatus'],
    }),
    setTourStatus: build.mutation<TourStatus, OnboardingStateInput>({
      // One write at a time, in the order made: the last step and the completion are sent a moment
      // apart, and on a loaded machine the completion arrived first and the step after it.
      queryFn: (Onboardingstate, _api, _extra, baseQuery) => {
        const write = lastWrite.then(() =>
          baseQuery({ url: 'admin/onboarding/setTourStatus', method: 'POST', body: { Onboardingstate } }),
        );
        lastWrite = write.catch(() => undefined);
        return write as Promise<
          QueryReturnValue<TourStatus, FetchBaseQueryError, NonNullable<unknown> | undefined>
        >;
      },
      invalidatesTags: ['TourStatus'],
    }),
  }),
});

export const { useTourStatusQuery, useSetTourStatusMutation } = tourApi;
