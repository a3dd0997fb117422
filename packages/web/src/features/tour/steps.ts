import { TOUR_SERVER_STEPS, TOUR_TIMING } from '@slipway/contracts';

/** How a step moves on to the next one. */
export type TourAdvance =
  /** the user clicks the element marked `data-tour="<target>"` */
  | { kind: 'click'; target: string }
  /** an element appears: the screen the step explains has moved on (e.g. the attach modal's next step) */
  | { kind: 'present'; target: string }
  /** after TOUR_TIMING.autoAdvanceMs once the step's target is shown */
  | { kind: 'auto' }
  /** the run on screen reaches a finished status (spec §4) */
  | { kind: 'finished' };

export interface TourStep {
  /** i18n key under `tour.steps` */
  id: string;
  /**
   * The `data-tour` values the popover points at, best first: the first is the step's own
   * screen; the others lead the user there (e.g. the sidebar entry) while it is not open.
   * Empty when Slipway has no such screen: the step is skipped (docs/decisions/014).
   */
  targets: string[];
  /** how often the step looks for its target (spec §4: 300 ms; cluster details 150, run button 500) */
  pollMs: number;
  advance: TourAdvance | null;
  /** the server step (currentstep) sent when the step's action happens (spec §4's table) */
  serverStep: number;
  /** where the popover sits; beside a large panel (a dialog's body, a form) rather than below it */
  placement?: 'bottom' | 'left-start' | 'right-start';
}

const S = TOUR_SERVER_STEPS;
/** The way to the microservice library: its sidebar entry. */
const TO_LIBRARY = ['microservice-library'];
/** The way to the creation wizard: the library's "New application" button, then the library. */
const TO_WIZARD = ['microservice-initiate', ...TO_LIBRARY];
/** The way to the attach modal: the Clusters page's Attach button, then Clusters in the sidebar. */
const TO_ATTACH = ['cluster-attach-open', 'clusters'];
/** The way back to a run: Pipelines in the sidebar (its run list opens the runs). */
const TO_RUN = ['pipelines'];
const POLL = TOUR_TIMING.targetPollMs;

/** A step on a screen of Slipway's: the popover points at `targets`, best first. */
function step(
  id: string,
  targets: string[],
  advance: TourAdvance,
  serverStep: number,
  options: Pick<TourStep, 'pollMs' | 'placement'> | Pick<TourStep, 'placement'> = {},
): TourStep {
  return { id, targets, pollMs: POLL, advance, serverStep, ...options };
}

/** A step whose screen Slipway does not have: it is skipped. */
function noScreen(id: string, serverStep: number): TourStep {
  return { id, targets: [], pollMs: POLL, advance: null, serverStep };
}

const click = (target: string): TourAdvance => ({ kind: 'click', target });
const present = (target: string): TourAdvance => ({ kind: 'present', target });
const auto = (): TourAdvance => ({ kind: 'auto' });
const finished = (): TourAdvance => ({ kind: 'finished' });

/**
 * The tour's 23 steps; the index is the tour step, max(0, currentstep - 4). It starts in the
 * microservice library: its sidebar entry, the "New application" button, the wizard's general
 * details (done when the service step appears), the success page's proceed button. Step 5 (the
 * provisioning page) has no screen: it goes to the attach modal's steps when the workspace has no
 * cluster, and past them (server step 14) when it has one. It ends at an application's overview.
 */
export const TOUR_STEPS: TourStep[] = [
  step('library', TO_LIBRARY, click('microservice-library'), S.libraryClick),
  step('initiate', TO_WIZARD, click('microservice-initiate'), S.initiate),
  step(
    'generalDetails',
    ['microservice-general-details', ...TO_WIZARD],
    present('microservice-service'),
    S.generalDetailsDone,
    { placement: 'right-start' },
  ),
  step(
    'success',
    ['microservice-proceed', 'microservice-success', 'microservice-service', ...TO_WIZARD],
    click('microservice-proceed'),
    S.proceedToPipeline,
  ),
  step(
    'runList',
    ['pipeline-run-initiate', 'pipelines'],
    click('pipeline-run-initiate'),
    S.initiatePipelineRun,
  ),
  noScreen('provisioning', S.provisioningPage),
  step(
    'attachConfigure',
    ['cluster-attach-configure', ...TO_ATTACH],
    present('cluster-attach-connect'),
    S.attachModalDetailsSubmit,
    { placement: 'left-start', pollMs: TOUR_TIMING.clusterDetailsPollMs },
  ),
  step(
    'attachConnect',
    ['cluster-attach-download', 'cluster-attach-connect', ...TO_ATTACH],
    click('cluster-attach-download'),
    S.downloadYaml,
  ),
  step(
    'attachHeartbeat',
    ['cluster-attach-heartbeat', 'cluster-attach-connect', ...TO_ATTACH],
    present('cluster-attach-namespaces'),
    S.downloadYaml + 1,
  ),
  step(
    'attachNamespaces',
    ['cluster-attach-namespaces', ...TO_ATTACH],
    present('cluster-attach-done'),
    S.namespacesDone,
  ),
  step(
    'runPanel',
    ['run-input-panel', 'pipeline-run-initiate', 'pipelines'],
    click('run-start'),
    S.runClick,
    { placement: 'left-start', pollMs: TOUR_TIMING.runButtonPollMs },
  ),
  step('canvas', ['run-canvas', ...TO_RUN], auto(), S.canvasAutoAdvance),
  step('inputParameters', ['run-tab-params', ...TO_RUN], click('run-tab-params'), S.inputParameters),
  step('paramsPanel', ['run-params-panel', 'run-tab-params', ...TO_RUN], auto(), S.panelAutoAdvance),
  step('canvasClick', ['run-canvas', ...TO_RUN], click('run-canvas'), S.canvasClick),
  step('mainCanvas', ['run-canvas', ...TO_RUN], auto(), S.mainCanvasAutoAdvance),
  step('logs', ['run-tab-logs', ...TO_RUN], click('run-tab-logs'), S.logs),
  step('terminal', ['run-terminal', 'run-tab-logs', ...TO_RUN], auto(), S.terminalAutoAdvance),
  step('buildTaskLog', ['run-log-task', 'run-tab-logs', ...TO_RUN], click('run-log-task'), S.buildTaskLog),
  step('applyYamlLog', ['run-log-task', 'run-tab-logs', ...TO_RUN], click('run-log-task'), S.applyYamlLog),
  step('returnToCanvas', ['run-canvas', ...TO_RUN], click('run-canvas'), S.canvas),
  step('finalCanvas', ['run-canvas', ...TO_RUN], finished(), S.finalCanvas),
  step(
    'overview',
    ['microservice-overview-link', ...TO_LIBRARY],
    click('microservice-overview-link'),
    S.microserviceOverview,
  ),
];

/** Whether Slipway has the step's screen. */
export function isAvailable(step: TourStep): boolean {
  return step.targets.length > 0;
}

/** The index of the step at which the provisioning step lands, given whether a cluster is attached. */
export const ATTACH_FIRST_STEP = 6;
export const RUN_PANEL_STEP = 10;

/**
 * Where the tour goes from `index` when that step has no screen: the next step that has one (or
 * TOUR_STEPS.length, the end), and the server step to record. From the provisioning step the tour
 * goes to the attach modal without a cluster, past it with one (server step 14).
 */
export function skipFrom(index: number, clusterPresent: boolean): { index: number; serverStep: number } {
  let i = index;
  let serverStep = TOUR_STEPS[index]?.serverStep ?? 0;
  while (i < TOUR_STEPS.length && !isAvailable(TOUR_STEPS[i]!)) {
    if (TOUR_STEPS[i]!.id === 'provisioning') {
      if (clusterPresent) {
        serverStep = S.provisioningPage;
        i = RUN_PANEL_STEP;
      } else {
        serverStep = TOUR_STEPS[i - 1]!.serverStep + 1;
        i = ATTACH_FIRST_STEP;
      }
      continue;
    }
    serverStep = TOUR_STEPS[i]!.serverStep;
    i += 1;
  }
  return { index: i, serverStep };
}

/**
 * The nearest earlier step that has a screen, or `index` itself when there is none; with a
 * cluster attached the attach modal's steps were passed over, so going back passes them too.
 */
export function previousAvailable(index: number, clusterPresent: boolean): number {
  for (let i = index - 1; i >= 0; i--) {
    if (clusterPresent && i >= ATTACH_FIRST_STEP && i < RUN_PANEL_STEP) continue;
    if (isAvailable(TOUR_STEPS[i]!)) return i;
  }
  return index;
}
