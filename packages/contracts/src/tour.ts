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
