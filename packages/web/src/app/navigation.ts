import type { en } from '../i18n/locales/en';

export type AreaId = keyof typeof en.nav;
export type NavGroupId = keyof typeof en.groups;

export interface NavItem {
  id: AreaId;
  path: string;
  /** Marks the element the guided tour points at (spec §2, tour step 1). */
  tourTarget?: string;
}

export interface NavGroup {
  id: NavGroupId;
  items: NavItem[];
}

/** The dashboard sits above the groups. */
export const HOME: NavItem = { id: 'dashboard', path: '/dashboard' };

/**
 * Every area of the product (spec §1–§2), grouped the way a DevOps engineer works: build it,
 * deploy it, operate it, look back at how it went, and configure the platform.
 */
export const NAV_GROUPS: NavGroup[] = [
  {
    id: 'build',
    items: [
      { id: 'applications', path: '/applications', tourTarget: 'microservice-library' },
      { id: 'pipelines', path: '/pipelines' },
      { id: 'pipelineTemplates', path: '/pipeline-templates' },
      { id: 'taskTemplates', path: '/task-templates' },
      { id: 'externalPipelines', path: '/external-pipelines' },
      { id: 'studio', path: '/studio' },
      { id: 'repositories', path: '/repositories' },
      { id: 'registries', path: '/registries' },
      { id: 'securityScanning', path: '/security' },
    ],
  },
  {
    id: 'deploy',
    items: [
      { id: 'releases', path: '/releases' },
      { id: 'schedules', path: '/schedules' },
      { id: 'clusters', path: '/clusters' },
      { id: 'environments', path: '/environments' },
      { id: 'helm', path: '/helm' },
      { id: 'snapshots', path: '/snapshots' },
      { id: 'restoredSnapshots', path: '/snapshots/restored' },
      { id: 'blockchain', path: '/blockchain' },
    ],
  },
  {
    id: 'operate',
    items: [
      { id: 'backups', path: '/backups' },
      { id: 'alerts', path: '/alerts' },
      { id: 'notifications', path: '/notifications' },
      { id: 'webhooks', path: '/webhooks' },
      { id: 'secrets', path: '/secrets' },
    ],
  },
  {
    id: 'insight',
    items: [
      { id: 'doraMetrics', path: '/dora-metrics' },
      { id: 'auditTrails', path: '/audit-trails' },
    ],
  },
  {
    id: 'settings',
    items: [
      { id: 'providers', path: '/settings/providers' },
      { id: 'profile', path: '/settings/profile' },
      { id: 'account', path: '/settings/account' },
      { id: 'team', path: '/settings/team' },
      { id: 'roles', path: '/settings/roles' },
      { id: 'serviceAccounts', path: '/settings/service-accounts' },
      { id: 'billing', path: '/settings/billing' },
    ],
  },
];

export const ALL_AREAS: NavItem[] = [HOME, ...NAV_GROUPS.flatMap((g) => g.items)];

/** The screens outside the application layout (spec §2); their contents arrive with identity. */
export const AUTH_PATHS = [
  '/login',
  '/signup',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/set-password',
] as const;
