import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../features/access/RequirePermission';
import { AccessDenied } from '../ui/AccessDenied';
import { LoadingPage } from '../ui/LoadingPage';
import { RouterErrorFallback } from '../ui/RouterErrorFallback';
import { ALL_AREAS, AUTH_PATHS, type AreaId, type AuthPath, type NavItem } from './navigation';
import { RequireAuth } from './RequireAuth';
import { loadAppStrings } from '../i18n/i18n';
import LoginPage from '../features/auth/LoginPage';

type Lazy = RouteObject['lazy'];
const page =
  (load: () => Promise<{ default: ComponentType }>): Lazy =>
  async () => ({ Component: (await load()).default });

// The layout brings the application's English with it (the sign-in screens never need it).
const layout: Lazy = async () => {
  const [module] = await Promise.all([import('./layout/AppLayout'), loadAppStrings()]);
  return { Component: module.default };
};
const comingSoon = page(() => import('../features/areas/ComingSoonPage'));

/** The screens outside the application layout (spec §2), each loaded on its own. */
const AUTH_PAGES: Record<AuthPath, Lazy> = {
  // Every first visit without a session ends here, so the sign-in screen ships with the entry
  // chunk: one file compresses better than a dozen small shared ones.
  '/login': async () => ({ Component: LoginPage }),
  '/signup': page(() => import('../features/auth/SignupPage')),
  '/verify-email': page(() => import('../features/auth/VerifyEmailPage')),
  '/forgot-password': page(() => import('../features/auth/ForgotPasswordPage')),
  '/reset-password': page(() => import('../features/auth/ResetPasswordPage')),
  '/set-password': page(() => import('../features/auth/SetPasswordPage')),
  '/accept-invite': page(() => import('../features/invites/AcceptInvitePage')),
};

/** Areas that are built have their own page; the rest say "coming soon". */
const builtAreas: Partial<Record<AreaId, Lazy>> = {
  profile: page(() => import('../features/profile/ProfilePage')),
  account: page(() => import('../features/account/AccountPage')),
  team: page(() => import('../features/team/TeamPage')),
  roles: page(() => import('../features/roles/RolesPage')),
  serviceAccounts: page(() => import('../features/service-accounts/ServiceAccountsPage')),
  auditTrails: page(() => import('../features/audit/AuditTrailsPage')),
  pipelines: page(() => import('../features/pipelines/PipelinesPage')),
  externalPipelines: page(() => import('../features/external-pipelines/ExternalPipelinesPage')),
  pipelineTemplates: page(() => import('../features/catalogue/PipelineTemplatesPage')),
  taskTemplates: page(() => import('../features/catalogue/TaskTemplatesPage')),
  secrets: page(() => import('../features/secrets/SecretsPage')),
  configMaps: page(() => import('../features/config-maps/ConfigMapsPage')),
  webhooks: page(() => import('../features/webhooks/WebhooksPage')),
  schedules: page(() => import('../features/schedules/SchedulesPage')),
  clusters: page(() => import('../features/clusters/ClustersPage')),
  environments: page(() => import('../features/environments/EnvironmentsPage')),
  applications: page(() => import('../features/applications/ApplicationsPage')),
  dashboard: page(() => import('../features/dashboard/DashboardPage')),
  studio: page(() => import('../features/studio/StudioPage')),
  repositories: page(() => import('../features/repositories/RepositoriesPage')),
  registries: page(() => import('../features/registries/RegistriesPage')),
};

/** Pages under an area's path, behind the same view permission (path relative to the area). */
const areaChildren: Partial<Record<AreaId, RouteObject[]>> = {
  pipelines: [
    { path: 'new', lazy: page(() => import('../features/pipelines/NewPipelinePage')) },
    { path: 'run-yaml', lazy: page(() => import('../features/pipelines/RunFromYamlPage')) },
    { path: 'runs/:runId', lazy: page(() => import('../features/pipelines/RunPage')) },
    { path: ':id', lazy: page(() => import('../features/pipelines/PipelineDetailPage')) },
  ],
  studio: [
    { path: 'pipelines/:id', lazy: page(() => import('../features/studio/StudioPipelinePage')) },
    { path: 'runs/:runId', lazy: page(() => import('../features/studio/StudioRunPage')) },
  ],
  clusters: [{ path: ':id', lazy: page(() => import('../features/clusters/ClusterDetailPage')) }],
  repositories: [{ path: ':id', lazy: page(() => import('../features/repositories/RepositoryDetailPage')) }],
  environments: [{ path: ':id', lazy: page(() => import('../features/environments/EnvironmentDetailPage')) }],
  applications: [
    { path: 'new', lazy: page(() => import('../features/applications/NewApplicationPage')) },
    { path: 'quick-setup', lazy: page(() => import('../features/quick-setup/QuickSetupPage')) },
    { path: ':id', lazy: page(() => import('../features/applications/ApplicationDetailPage')) },
  ],
};

/** An area's route: its page, behind the area's view permission when it has one (spec §6). */
function areaRoute(area: NavItem): RouteObject {
  const route = { handle: { area: area.id }, lazy: builtAreas[area.id] ?? comingSoon };
  const more = (areaChildren[area.id] ?? []).map((child) => ({ handle: { area: area.id }, ...child }));
  if (!area.permission && more.length === 0) return { path: area.path, ...route };
  return {
    path: area.path,
    handle: { area: area.id },
    element: area.permission ? <RequirePermission permission={area.permission} /> : <Outlet />,
    children: [{ index: true, ...route }, ...more],
  };
}

/**
 * Every route of the app. Pages load lazily, so a first visit downloads only the shell and the
 * page it asked for; an unknown path ends at the router's default fallback with a 404, inside the
 * layout. The layout and everything in it needs a session (RequireAuth).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Outlet />,
    errorElement: <RouterErrorFallback />,
    hydrateFallbackElement: <LoadingPage />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      ...AUTH_PATHS.map((path) => ({ path, lazy: AUTH_PAGES[path] })),
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: layout,
            children: [
              ...ALL_AREAS.map(areaRoute),
              { path: '/access-denied', element: <AccessDenied /> },
              // An unknown path inside the app answers the router's 404 fallback within the layout,
              // so the sidebar and the way back stay.
              {
                path: '*',
                loader: () => {
                  throw new Response(null, { status: 404, statusText: 'Not Found' });
                },
                errorElement: <RouterErrorFallback />,
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
