import { groups, nav } from './fr/layout';
import { account } from './fr/account';
import { pipelines } from './fr/pipelines';
import { quickSetup } from './fr/quick-setup';

/**
 * French: sidebar labels only (spec §1); everything else falls back to English.
 * One file per area in ./fr/, named as English's.
 */
export const fr = {
  groups,
  nav,
  account,
  pipelines,
  quickSetup,
};
