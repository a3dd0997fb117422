import { useCallback, useEffect, useRef } from 'react';
import {
  clampTourStep,
  shouldOpenTour,
  TOUR_COMPLETED_SERVER_STEP,
  TOUR_COMPLETES_AT_STEP,
  TOUR_OPENS_AT_SERVER_STEP,
  tourStepFromServerStep,
} from '@slipway/contracts';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { usePermission } from '../access/usePermission';
import { onboardingUpdated } from '../onboarding/onboarding-slice';
import { onboardingV2Updated, tourClosed } from '../onboarding/onboarding-v2-slice';
import { useSetTourStatusMutation, useTourStatusQuery } from './api';
import { isAvailable, previousAvailable, skipFrom, TOUR_STEPS } from './steps';

/**
 * The tour's state machine (spec §4). The step index lives in onboardingV2.currentStep and is
 * clamped to the steps; the server's currentstep opens the tour (4 or more while onboarding is in
 * progress) and records each action's server step. A sign-in (onboardingV2.shoulCallOnboarding)
 * of someone who has not started the tour and may create applications starts it: currentstep 4,
 * the tour's first step. Steps without a screen in Slipway are passed over, recording the server
 * step they would have.
 */
export function useTourMachine(clusters: boolean | null) {
  const clusterPresent = clusters === true;
  const dispatch = useAppDispatch();
  const { isTourOpen, currentStep, shoulCallOnboarding } = useAppSelector((s) => s.onboardingV2);
  const showGuide = useAppSelector((s) => s.onboarding.showGuide);
  const { data } = useTourStatusQuery();
  const [setStatus] = useSetTourStatusMutation();
  /** the tour was open before this page load (the onboarding slice is kept in session storage) */
  const wasGuiding = useRef(showGuide);
  /** closed by the user: a later status answer does not reopen it in this page load */
  const dismissed = useRef(false);

  useEffect(() => {
    if (isTourOpen) dismissed.current = false;
  }, [isTourOpen]);

  // A first sign-in starts the tour; Skip or completion (is_onboarding_completed) keeps it closed.
  // It begins by creating a microservice: someone who may not is not walked through it unasked.
  const { allowed: mayCreate, isLoading: checking } = usePermission('applications:create');
  useEffect(() => {
    if (!shoulCallOnboarding || !data?.Onboardingstate || checking) return;
    dispatch(onboardingV2Updated({ shoulCallOnboarding: false }));
    const { currentstep, is_onboarding_completed } = data.Onboardingstate;
    if (mayCreate && !is_onboarding_completed && currentstep < TOUR_OPENS_AT_SERVER_STEP) {
      void setStatus({ currentstep: TOUR_OPENS_AT_SERVER_STEP });
    }
  }, [shoulCallOnboarding, data, checking, mayCreate, dispatch, setStatus]);

  // Open from the server's state.
  useEffect(() => {
    // an answer of another shape (an older server) leaves the tour closed
    if (!data?.Onboardingstate) return;
    const { currentstep, is_onboarding_completed } = data.Onboardingstate;
    const inProgress = !is_onboarding_completed;
    dispatch(onboardingV2Updated({ isOnboardingInProgress: inProgress }));
    if (!inProgress) {
      if (isTourOpen) dispatch(tourClosed());
      return;
    }
    if (!isTourOpen && !dismissed.current && shouldOpenTour(currentstep, inProgress)) {
      dispatch(
        onboardingV2Updated({
          isTourOpen: true,
          currentStep: tourStepFromServerStep(currentstep),
          // reloading mid-tour (spec §4)
          ...(wasGuiding.current ? { hasRefreshed: true } : {}),
        }),
      );
      dispatch(onboardingUpdated({ showGuide: true }));
    }
    // isTourOpen is read, not followed: closing must not reopen from the same answer
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, dispatch]);

  const record = useCallback(
    (serverStep: number) => {
      void setStatus({ currentstep: serverStep });
    },
    [setStatus],
  );

  /** Moves to `index`, recording `serverStep`. */
  const goTo = useCallback(
    (index: number, serverStep: number) => {
      dispatch(onboardingV2Updated({ currentStep: index }));
      record(serverStep);
    },
    [dispatch, record],
  );

  /** The current step's action happened (or the user pressed Next). */
  const advance = useCallback(() => {
    const step = TOUR_STEPS[currentStep];
    if (!step) return;
    goTo(currentStep + 1, step.serverStep);
  }, [currentStep, goTo]);

  const previous = useCallback(() => {
    dispatch(
      onboardingV2Updated({
        currentStep: clampTourStep(previousAvailable(currentStep, clusterPresent), TOUR_STEPS.length),
      }),
    );
  }, [currentStep, clusterPresent, dispatch]);

  const close = useCallback(() => {
    dismissed.current = true;
    dispatch(tourClosed());
  }, [dispatch]);

  /** "Skip tour": is_onboarding_completed, and the tour closes. */
  const skip = useCallback(() => {
    dismissed.current = true;
    void setStatus({ is_onboarding_completed: true });
    dispatch(
      onboardingV2Updated({ isTourOpen: false, isOnboardingSkipped: true, isOnboardingInProgress: false }),
    );
    dispatch(onboardingUpdated({ showGuide: false }));
  }, [dispatch, setStatus]);

  // Completion, and steps without a screen.
  useEffect(() => {
    if (!isTourOpen) return;
    if (currentStep >= TOUR_COMPLETES_AT_STEP) {
      // with the last server step: whichever of this and the last step's record lands first
      // finishes the tour (a completion before it would read as a skip)
      void setStatus({ currentstep: TOUR_COMPLETED_SERVER_STEP, is_onboarding_completed: true });
      dispatch(onboardingV2Updated({ isTourOpen: false, isOnboardingInProgress: false }));
      dispatch(onboardingUpdated({ showGuide: false, tourComplete: true }));
      return;
    }
    const step = TOUR_STEPS[currentStep];
    if (step && !isAvailable(step)) {
      // the provisioning step waits to know whether a cluster is attached
      if (step.id === 'provisioning' && clusters === null) return;
      const to = skipFrom(currentStep, clusterPresent);
      goTo(to.index, to.serverStep);
    }
  }, [isTourOpen, currentStep, clusters, clusterPresent, dispatch, goTo, setStatus]);

  const index = clampTourStep(currentStep, TOUR_STEPS.length);
  return {
    open: isTourOpen && currentStep < TOUR_COMPLETES_AT_STEP,
    index,
    step: TOUR_STEPS[index]!,
    canGoBack: previousAvailable(index, clusterPresent) !== index,
    advance,
    previous,
    close,
    skip,
  };
}

/** The server step "Take the tour" restarts at: the tour's first step (spec §4: 4). */
export const TOUR_RESTART_SERVER_STEP = TOUR_OPENS_AT_SERVER_STEP;
