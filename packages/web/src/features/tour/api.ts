import type { OnboardingStateInput, TourStatus } from '@slipway/contracts';
import type { FetchBaseQueryError, QueryReturnValue } from '@reduxjs/toolkit/query';
import { api } from '../../app/api';

type WriteResult = QueryReturnValue<TourStatus, FetchBaseQueryError, NonNullable<unknown> | undefined>;

/** Each store's last status write (keyed by its dispatch): the next one is sent after it settles. */
const lastWrites = new WeakMap<object, Promise<unknown>>();

/** admin/onboarding/{get,set}TourStatus (spec §7). Setting the status invalidates the cached one. */
export const tourApi = api.enhanceEndpoints({ addTagTypes: ['TourStatus'] }).injectEndpoints({
  endpoints: (build) => ({
    tourStatus: build.query<TourStatus, void>({
      query: () => 'admin/onboarding/getTourStatus',
      providesTags: ['TourStatus'],
    }),
    setTourStatus: build.mutation<TourStatus, OnboardingStateInput>({
      // One write at a time, in the order made: steps are recorded moments apart (the last step and
      // the completion, a step and the no-screen step after it), and on a loaded machine a later
      // write overtook an earlier one, leaving the server a step behind the tour.
      queryFn: (Onboardingstate, { dispatch }, _extra, baseQuery) => {
        const write = (lastWrites.get(dispatch) ?? Promise.resolve()).then(() =>
          baseQuery({ url: 'admin/onboarding/setTourStatus', method: 'POST', body: { Onboardingstate } }),
        );
        lastWrites.set(
          dispatch,
          write.catch(() => undefined),
        );
        return write as Promise<WriteResult>;
      },
      invalidatesTags: ['TourStatus'],
    }),
  }),
});

export const { useTourStatusQuery, useSetTourStatusMutation } = tourApi;
