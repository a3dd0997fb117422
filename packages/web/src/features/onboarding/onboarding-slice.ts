import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loggedOut } from '../auth/auth-slice';

/** Onboarding state (spec §3): persisted per browser session, reset on logout. */
export interface OnboardingState {
  type: string;
  setupType: string | null;
  repository: unknown;
  msData: unknown;
  pipeline: unknown;
  pipelineId: string | number | null;
  serviceUrl: string | null;
  clusterType: { id: string | number | null; name: string | null };
  pageState: number;
  clusterStatus: string | null;
  dashboard: { deployments: unknown; dorametrics: unknown };
  showGuide: boolean;
  tourComplete: boolean;
  privateCluster: { provider_id: string | number | null; tunnel_config: string | null };
  registry: { custom: unknown; setup: { name: string | null } };
  application: { custom: unknown; setup: { name: string | null } };
}

export const initialOnboardingState: OnboardingState = {
  type: 'quick_setup',
  setupType: null,
  repository: null,
  msData: null,
  pipeline: null,
  pipelineId: null,
  serviceUrl: null,
  clusterType: { id: null, name: null },
  pageState: 0,
  clusterStatus: null,
  dashboard: { deployments: null, dorametrics: null },
  showGuide: false,
  tourComplete: false,
  privateCluster: { provider_id: null, tunnel_config: null },
  registry: { custom: null, setup: { name: null } },
  application: { custom: null, setup: { name: null } },
};

export const onboardingSlice = createSlice({
  name: 'onboarding',
  initialState: initialOnboardingState,
  reducers: {
    /** Merges top-level fields; nested objects are replaced whole. */
    onboardingUpdated(state, action: PayloadAction<Partial<OnboardingState>>) {
      Object.assign(state, action.payload);
    },
    onboardingReset() {
      return initialOnboardingState;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(loggedOut, () => initialOnboardingState);
  },
});

export const { onboardingUpdated, onboardingReset } = onboardingSlice.actions;
