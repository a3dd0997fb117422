import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_CLUSTER_NAMESPACE } from '@slipway/contracts';
import { loggedOut, signedIn } from '../auth/auth-slice';

/** onboardingV2 (spec §3). `shoulCallOnboarding` is spelled as the spec spells it. */
export interface OnboardingV2State {
  isOnboardingInProgress: boolean;
  isOnboardingDisabled: boolean;
  isTourOpen: boolean;
  isVClusterPresent: boolean;
  clusterNamespace: string;
  shoulCallOnboarding: boolean;
  devEnv: unknown;
  templateID: string | number | null;
  shouldShow: boolean;
  hasRefreshed: boolean;
  isOnboardingSkipped: boolean;
  application: { id: string | number | null; name: string | null };
  currentStep: number;
}

export const initialOnboardingV2State: OnboardingV2State = {
  isOnboardingInProgress: true,
  isOnboardingDisabled: false,
  isTourOpen: false,
  isVClusterPresent: false,
  clusterNamespace: DEFAULT_CLUSTER_NAMESPACE,
  shoulCallOnboarding: false,
  devEnv: null,
  templateID: null,
  shouldShow: false,
  hasRefreshed: false,
  isOnboardingSkipped: false,
  application: { id: null, name: null },
  currentStep: 0,
};

export const onboardingV2Slice = createSlice({
  name: 'onboardingV2',
  initialState: initialOnboardingV2State,
  reducers: {
    onboardingV2Updated(state, action: PayloadAction<Partial<OnboardingV2State>>) {
      Object.assign(state, action.payload);
    },
    tourOpened(state) {
      state.isTourOpen = true;
    },
    tourClosed(state) {
      state.isTourOpen = false;
    },
    onboardingV2Reset() {
      return initialOnboardingV2State;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(loggedOut, () => initialOnboardingV2State);
    // a sign-in asks the guided tour whether this is the person's first (it starts the tour then)
    builder.addCase(signedIn, (state) => {
      state.shoulCallOnboarding = true;
    });
  },
});

export const { onboardingV2Updated, tourOpened, tourClosed, onboardingV2Reset } = onboardingV2Slice.actions;
