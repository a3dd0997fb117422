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
  /** where the popover sits; beside a large panel (a dialog's body) rather than below it */
  placement?: 'bottom' | 'left-start';
}

const S = TOUR_SERVER_STEPS;
/** The way to the attach modal: the Clusters page's Attach button, then Clusters in the sidebar. */
const TO_ATTACH = ['cluster-attach-open', 'clusters'];
/** The way back to a run: Pipelines in the sidebar (its run list opens the runs). */
const TO_RUN = ['pipelines'];
const POLL = TOUR_TIMING.targetPollMs;

/**
 * The tour's 23 steps; the index is the tour step, max(0, currentstep - 4). Steps 0–3 and 22
 * concern the microservice library, which Slipway does not have yet: they have no targets and
 * are skipped. Step 5 (the provisioning page) has no screen either: it goes to the attach modal's
 * steps when the workspace has no cluster, and past them (server step 14) when it has one.
 */
export const TOUR_STEPS: TourStep[] = [
  { id: 'library', targets: [], pollMs: POLL, advance: null, serverStep: S.libraryClick },
  { id: 'initiate', targets: [], pollMs: POLL, advance: null, serverStep: S.initiate },
  { id: 'generalDetails', targets: [], pollMs: POLL, advance: null, serverStep: S.generalDetailsDone },
  { id: 'success', targets: [], pollMs: POLL, advance: null, serverStep: S.proceedToPipeline },
  {
    id: 'runList',
    targets: ['pipeline-run-initiate', 'pipelines'],
    pollMs: POLL,
    advance: { kind: 'click', target: 'pipeline-run-initiate' },
    serverStep: S.initiatePipelineRun,
  },
  { id: 'provisioning', targets: [], pollMs: POLL, advance: null, serverStep: S.provisioningPage },
  {
    id: 'attachConfigure',
    targets: ['cluster-attach-configure', ...TO_ATTACH],
    placement: 'left-start',
    pollMs: TOUR_TIMING.clusterDetailsPollMs,
    advance: { kind: 'present', target: 'cluster-attach-connect' },
    serverStep: S.attachModalDetailsSubmit,
  },
  {
    id: 'attachConnect',
    targets: ['cluster-attach-download', 'cluster-attach-connect', ...TO_ATTACH],
    pollMs: POLL,
    advance: { kind: 'click', target: 'cluster-attach-download' },
    serverStep: S.downloadYaml,
  },
  {
    id: 'attachHeartbeat',
    targets: ['cluster-attach-heartbeat', 'cluster-attach-connect', ...TO_ATTACH],
    pollMs: POLL,
    advance: { kind: 'present', target: 'cluster-attach-namespaces' },
    serverStep: S.downloadYaml + 1,
  },
  {
    id: 'attachNamespaces',
    targets: ['cluster-attach-namespaces', ...TO_ATTACH],
    pollMs: POLL,
    advance: { kind: 'present', target: 'cluster-attach-done' },
    serverStep: S.namespacesDone,
  },
  {
    id: 'runPanel',
    targets: ['run-input-panel', 'pipeline-run-initiate', 'pipelines'],
    placement: 'left-start',
    pollMs: TOUR_TIMING.runButtonPollMs,
    advance: { kind: 'click', target: 'run-start' },
    serverStep: S.runClick,
  },
  {
    id: 'canvas',
    targets: ['run-canvas', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'auto' },
    serverStep: S.canvasAutoAdvance,
  },
  {
    id: 'inputParameters',
    targets: ['run-tab-params', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'click', target: 'run-tab-params' },
    serverStep: S.inputParameters,
  },
  {
    id: 'paramsPanel',
    targets: ['run-params-panel', 'run-tab-params', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'auto' },
    serverStep: S.panelAutoAdvance,
  },
  {
    id: 'canvasClick',
    targets: ['run-canvas', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'click', target: 'run-canvas' },
    serverStep: S.canvasClick,
  },
  {
    id: 'mainCanvas',
    targets: ['run-canvas', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'auto' },
    serverStep: S.mainCanvasAutoAdvance,
  },
  {
    id: 'logs',
    targets: ['run-tab-logs', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'click', target: 'run-tab-logs' },
    serverStep: S.logs,
  },
  {
    id: 'terminal',
    targets: ['run-terminal', 'run-tab-logs', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'auto' },
    serverStep: S.terminalAutoAdvance,
  },
  {
    id: 'buildTaskLog',
    targets: ['run-log-task', 'run-tab-logs', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'click', target: 'run-log-task' },
    serverStep: S.buildTaskLog,
  },
  {
    id: 'applyYamlLog',
    targets: ['run-log-task', 'run-tab-logs', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'click', target: 'run-log-task' },
    serverStep: S.applyYamlLog,
  },
  {
    id: 'returnToCanvas',
    targets: ['run-canvas', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'click', target: 'run-canvas' },
    serverStep: S.canvas,
  },
  {
    id: 'finalCanvas',
    targets: ['run-canvas', ...TO_RUN],
    pollMs: POLL,
    advance: { kind: 'finished' },
    serverStep: S.finalCanvas,
  },
  { id: 'overview', targets: [], pollMs: POLL, advance: null, serverStep: S.microserviceOverview },
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
