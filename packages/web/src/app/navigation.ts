import type { Permission } from '@slipway/contracts';
import type { enApp } from '../i18n/locales/en-app';

export type AreaId = keyof typeof enApp.nav;
export type NavGroupId = keyof typeof enApp.groups;

export interface NavItem {
  id: AreaId;
  path: string;
  /** Marks the element the guided tour points at (spec §2, tour step 1). */
  tourTarget?: string;
  /** The permission needed to open the page; without one, every signed-in user may. */
  permission?: Permission;
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
      {
        id: 'applications',
        path: '/applications',
        tourTarget: 'microservice-library',
        permission: 'applications:view',
      },
      { id: 'pipelines', path: '/pipelines', tourTarget: 'pipelines', permission: 'pipelines:view' },
      { id: 'pipelineTemplates', path: '/pipeline-templates', permission: 'pipelineTemplates:view' },
      { id: 'taskTemplates', path: '/task-templates', permission: 'taskTemplates:view' },
      { id: 'externalPipelines', path: '/external-pipelines', permission: 'pipelines:view' },
      { id: 'studio', path: '/studio', permission: 'pipelines:view' },
      { id: 'repositories', path: '/repositories', permission: 'repositories:view' },
      { id: 'registries', path: '/registries', permission: 'registries:view' },
      { id: 'securityScanning', path: '/security', permission: 'security:view' },
    ],
  },
  {
    id: 'deploy',
    items: [
      { id: 'releases', path: '/releases', permission: 'releases:view' },
      { id: 'schedules', path: '/schedules', permission: 'schedules:view' },
      { id: 'clusters', path: '/clusters', tourTarget: 'clusters', permission: 'clusters:view' },
      { id: 'environments', path: '/environments', permission: 'environments:view' },
      { id: 'helm', path: '/helm', permission: 'helm:view' },
      { id: 'snapshots', path: '/snapshots', permission: 'snapshots:view' },
      { id: 'restoredSnapshots', path: '/snapshots/restored', permission: 'snapshots:view' },
      { id: 'blockchain', path: '/blockchain', permission: 'blockchain:view' },
    ],
  },
  {
    id: 'operate',
    items: [
      { id: 'backups', path: '/backups', permission: 'backups:view' },
      { id: 'alerts', path: '/alerts', permission: 'alerts:view' },
      { id: 'notifications', path: '/notifications', permission: 'notifications:view' },
      { id: 'webhooks', path: '/webhooks', permission: 'webhooks:view' },
      { id: 'secrets', path: '/secrets', permission: 'secrets:view' },
      { id: 'configMaps', path: '/config-maps', permission: 'secrets:view' },
    ],
  },
  {
    id: 'insight',
    items: [
      { id: 'doraMetrics', path: '/dora-metrics', permission: 'dora:view' },
      { id: 'auditTrails', path: '/audit-trails', permission: 'audit:view' },
    ],
  },
  {
    id: 'settings',
    items: [
      { id: 'providers', path: '/settings/providers', permission: 'providers:view' },
      { id: 'profile', path: '/settings/profile' },
      { id: 'account', path: '/settings/account', permission: 'organisation:view' },
      { id: 'team', path: '/settings/team', permission: 'members:view' },
      { id: 'roles', path: '/settings/roles', permission: 'roles:view' },
      { id: 'serviceAccounts', path: '/settings/service-accounts', permission: 'serviceAccounts:view' },
      { id: 'billing', path: '/settings/billing', permission: 'billing:view' },
    ],
  },
];

export const ALL_AREAS: NavItem[] = [HOME, ...NAV_GROUPS.flatMap((g) => g.items)];

/** The sign-in screens, outside the application layout and open without a session (spec §2). */
export const AUTH_PATHS = [
  '/login',
  '/signup',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/set-password',
  '/accept-invite',
] as const;
export type AuthPath = (typeof AUTH_PATHS)[number];
