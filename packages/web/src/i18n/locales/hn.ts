import { groups, nav } from './hn/layout';
import { account } from './hn/account';
import { pipelines } from './hn/pipelines';
import { quickSetup } from './hn/quick-setup';

/**
 * Hindi (code `hn`, spec §1): sidebar labels only; everything else falls back to English.
 * One file per area in ./hn/, named as English's.
 */
export const hn = {
  groups,
  nav,
  account,
  pipelines,
  quickSetup,
};
