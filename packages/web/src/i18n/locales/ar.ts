import { groups, nav } from './ar/layout';
import { account } from './ar/account';
import { pipelines } from './ar/pipelines';
import { quickSetup } from './ar/quick-setup';
import { runLimits } from './ar/run-limits';

/**
 * Arabic: sidebar labels only (spec §1); everything else falls back to English.
 * One file per area in ./ar/, named as English's.
 */
export const ar = {
  groups,
  nav,
  account,
  pipelines,
  quickSetup,
  runLimits,
};
