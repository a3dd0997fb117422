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

/** An area: its page, the permission to open it (none: anyone signed in), and its tour target if any. */
function area(id: AreaId, path: string, permission?: Permission, tourTarget?: string): NavItem {
  return { id, path, ...(tourTarget ? { tourTarget } : {}), ...(permission ? { permission } : {}) };
}

const group = (id: NavGroupId, items: NavItem[]): NavGroup => ({ id, items });

/** The dashboard sits above the groups. */
export const HOME = area('dashboard', '/dashboard');

/**
 * Every area of the product (spec §1–§2), grouped the way a DevOps engineer works: build it,
 * deploy it, operate it, look back at how it went, and configure the platform.
 */
export const NAV_GROUPS: NavGroup[] = [
  group('build', [
    area('applications', '/applications', 'applications:view', 'microservice-library'),
    area('pipelines', '/pipelines', 'pipelines:view', 'pipelines'),
    area('pipelineTemplates', '/pipeline-templates', 'pipelineTemplates:view'),
    area('taskTemplates', '/task-templates', 'taskTemplates:view'),
    area('externalPipelines', '/external-pipelines', 'pipelines:view'),
    area('studio', '/studio', 'pipelines:view'),
    area('repositories', '/repositories', 'repositories:view'),
    area('registries', '/registries', 'registries:view'),
    area('securityScanning', '/security', 'security:view'),
  ]),
  group('deploy', [
    area('releases', '/releases', 'releases:view'),
    area('schedules', '/schedules', 'schedules:view'),
    area('clusters', '/clusters', 'clusters:view', 'clusters'),
    area('environments', '/environments', 'environments:view'),
    area('helm', '/helm', 'helm:view'),
    area('snapshots', '/snapshots', 'snapshots:view'),
    area('restoredSnapshots', '/snapshots/restored', 'snapshots:view'),
    area('blockchain', '/blockchain', 'blockchain:view'),
  ]),
  group('operate', [
    area('backups', '/backups', 'backups:view'),
    area('alerts', '/alerts', 'alerts:view'),
    area('notifications', '/notifications', 'notifications:view'),
    area('webhooks', '/webhooks', 'webhooks:view'),
    area('secrets', '/secrets', 'secrets:view'),
    area('configMaps', '/config-maps', 'secrets:view'),
  ]),
  group('insight', [
    area('doraMetrics', '/dora-metrics', 'dora:view'),
    area('auditTrails', '/audit-trails', 'audit:view'),
  ]),
  group('settings', [
    area('providers', '/settings/providers', 'providers:view'),
    area('profile', '/settings/profile'),
    area('account', '/settings/account', 'organisation:view'),
    area('team', '/settings/team', 'members:view'),
    area('roles', '/settings/roles', 'roles:view'),
    area('serviceAccounts', '/settings/service-accounts', 'serviceAccounts:view'),
    area('billing', '/settings/billing', 'billing:view'),
  ]),
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
