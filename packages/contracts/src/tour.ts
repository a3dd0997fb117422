import { z } from 'zod';
import { FINISHED_RUN_STATUSES } from './pipeline-runs.js';
import { PIPELINE_FINISHED_STATUSES, PIPELINE_SUCCESS_STATUS } from './statuses.js';

/** Guided tour (spec §2, §4). */
export const TOUR_SERVER_STEPS = {
  libraryClick: 5,
  initiate: 6,
  generalDetailsDone: 7,
  proceedToPipeline: 8,
  initiatePipelineRun: 9,
  attachModalDetailsSubmit: 11,
  downloadYaml: 12,
  provisioningPage: 14,
  namespacesDone: 14,
  runClick: 15,
  canvasAutoAdvance: 16,
  inputParameters: 17,
  panelAutoAdvance: 18,
  canvasClick: 19,
  mainCanvasAutoAdvance: 20,
  logs: 21,
  terminalAutoAdvance: 22,
  buildTaskLog: 23,
  applyYamlLog: 24,
  canvas: 25,
  finalCanvas: 26,
  microserviceOverview: 27,
} as const;

/** The tour opens when currentstep is 4 or more and onboarding is in progress. */
export const TOUR_OPENS_AT_SERVER_STEP = 4;
/** When the tour step counter reaches 23, onboarding is marked completed and the tour closes. */
export const TOUR_COMPLETES_AT_STEP = 23;

/** The tour step is max(0, currentstep - 4). */
export function tourStepFromServerStep(currentstep: number): number {
  return Math.max(0, currentstep - TOUR_OPENS_AT_SERVER_STEP);
}

export function shouldOpenTour(currentstep: number, onboardingInProgress: boolean): boolean {
  return onboardingInProgress && currentstep >= TOUR_OPENS_AT_SERVER_STEP;
}

export function clampTourStep(step: number, stepCount: number): number {
  if (stepCount <= 0) return 0;
  return Math.min(Math.max(0, step), stepCount - 1);
}

/** The highest server step: the microservice overview (spec §4's table). */
export const TOUR_LAST_SERVER_STEP = TOUR_SERVER_STEPS.microserviceOverview;
/** The server step at which the counter reaches TOUR_COMPLETES_AT_STEP (27). */
export const TOUR_COMPLETED_SERVER_STEP = TOUR_COMPLETES_AT_STEP + TOUR_OPENS_AT_SERVER_STEP;

// Timings, key codes and popover sizes are TOUR_TIMING, TOUR_KEY_CODES and TOUR_POPOVER (constants.ts).

/**
 * The Onboardingstate of admin/onboarding/{get,set}TourStatus (spec §7). A set carries
 * `is_onboarding_completed` or `currentstep`; `currentstep` only moves forward unless `restart`
 * is true, which starts the tour over at `currentstep` (and clears the completed flag).
 */
export const onboardingStateInputSchema = z
  .object({
    is_onboarding_completed: z.boolean().optional(),
    currentstep: z.number().int().min(0).max(TOUR_COMPLETED_SERVER_STEP).optional(),
    restart: z.boolean().optional(),
  })
  .strict()
  .refine((s) => s.is_onboarding_completed !== undefined || s.currentstep !== undefined, {
    message: 'Give is_onboarding_completed or currentstep',
  })
  .refine((s) => !s.restart || s.currentstep !== undefined, {
    message: 'A restart needs the currentstep to start at',
    path: ['currentstep'],
  });
export type OnboardingStateInput = z.infer<typeof onboardingStateInputSchema>;

export const setTourStatusBodySchema = z.object({ Onboardingstate: onboardingStateInputSchema }).strict();
export type SetTourStatusBody = z.infer<typeof setTourStatusBodySchema>;

export const onboardingStateSchema = z.object({
  is_onboarding_completed: z.boolean(),
  currentstep: z.number().int(),
});
export type OnboardingStateView = z.infer<typeof onboardingStateSchema>;

export const tourStatusSchema = z.object({ Onboardingstate: onboardingStateSchema });
export type TourStatus = z.infer<typeof tourStatusSchema>;

/**
 * Whether a run status ends the final canvas step: the spec's finished statuses (success, failed,
 * SUCCEEDED, FAILED) and Slipway's stored finished statuses (succeeded, failed, timed_out,
 * cancelled).
 */
export function isTourFinishedStatus(status: string): boolean {
  return (
    (PIPELINE_FINISHED_STATUSES as readonly string[]).includes(status) ||
    (FINISHED_RUN_STATUSES as readonly string[]).includes(status)
  );
}

/** Only success marks the pipeline completed (spec §4): `success`, or Slipway's `succeeded`. */
export function isTourSuccessStatus(status: string): boolean {
  return status === PIPELINE_SUCCESS_STATUS || status.toLowerCase() === 'succeeded';
}

/**
 * The state after a setTourStatus call (spec §4): currentstep only moves forward unless the call
 * restarts the tour; `is_onboarding_completed` sets the flag (Skip tour); reaching server step 27
 * (the tour counter's 23) marks onboarding completed.
 */
export function nextTourState(before: OnboardingStateView, input: OnboardingStateInput): OnboardingStateView {
  let { currentstep, is_onboarding_completed } = before;
  if (input.restart) {
    currentstep = input.currentstep ?? currentstep;
    is_onboarding_completed = false;
  } else if (input.currentstep !== undefined) {
    currentstep = Math.max(currentstep, input.currentstep);
  }
  if (input.is_onboarding_completed !== undefined) is_onboarding_completed = input.is_onboarding_completed;
  if (currentstep >= TOUR_COMPLETED_SERVER_STEP) is_onboarding_completed = true;
  return { currentstep, is_onboarding_completed };
}
