import { groups, nav } from './ja/layout';
import { account } from './ja/account';
import { pipelines } from './ja/pipelines';
import { quickSetup } from './ja/quick-setup';

/**
 * Japanese: sidebar labels only (spec §1); everything else falls back to English.
 * One file per area in ./ja/, named as English's.
 */
export const ja = {
  groups,
  nav,
  account,
  pipelines,
  quickSetup,
};
