import { profilePage } from './en/profile';
import { pipelines, pipelinesRun, studio, runLogs } from './en/pipelines';
import { team } from './en/team';
import { roles } from './en/roles';
import { serviceAccountsPage } from './en/service-accounts';
import { audit } from './en/audit';
import { account } from './en/account';
import { sso } from './en/sso';
import { webhooks } from './en/webhooks';
import { catalogue } from './en/catalogue';
import { secretsPage } from './en/secrets';
import { configMapsPage } from './en/config-maps';
import { clusters } from './en/clusters';
import { environments } from './en/environments';
import { comingSoon, areas } from './en/areas';
import { tour } from './en/tour';
import { userMenu, workspace, groups, nav, loopback } from './en/layout';
import { schedules } from './en/schedules';
import { externalPipelines } from './en/external-pipelines';
import { applications } from './en/applications';
import { dashboard } from './en/dashboard';
import { studioPage } from './en/studio';
import { quickSetup } from './en/quick-setup';
import { repositories } from './en/repositories';
import { registries } from './en/registries';
import { runLimits } from './en/run-limits';

/**
 * English for the signed-in application: every area's strings, one file per area in ./en/ (named
 * after src/features/<area>; layout.ts is the application layout's). Loaded with the application
 * layout (see loadAppStrings in ../i18n.ts), so the sign-in screens never download them: a file
 * here must not be imported by en.ts, nor one of en.ts's by this file.
 */
export const enApp = {
  profilePage,
  pipelines,
  pipelinesRun,
  team,
  roles,
  serviceAccountsPage,
  audit,
  account,
  runLimits,
  sso,
  webhooks,
  studio,
  catalogue,
  secretsPage,
  configMapsPage,
  clusters,
  environments,
  comingSoon,
  tour,
  userMenu,
  workspace,
  groups,
  nav,
  loopback,
  areas,
  schedules,
  externalPipelines,
  runLogs,
  applications,
  dashboard,
  studioPage,
  quickSetup,
  repositories,
  registries,
} as const;
