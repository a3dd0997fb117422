import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../features/access/RequirePermission';
import { AccessDenied } from '../ui/AccessDenied';
import { LoadingPage } from '../ui/LoadingPage';
import { RouterErrorFallback } from '../ui/RouterErrorFallback';
import { ALL_AREAS, AUTH_PATHS, type AreaId, type AuthPath, type NavItem } from './navigation';
import { RequireAuth } from './RequireAuth';

type Lazy = RouteObject['lazy'];
const page =
  (load: () => Promise<{ default: ComponentType }>): Lazy =>
  async () => ({ Component: (await load()).default });

const layout = page(() => import('./layout/AppLayout'));
const comingSoon = page(() => import('../features/areas/ComingSoonPage'));

/** The screens outside the application layout (spec §2), each loaded on its own. */
const AUTH_PAGES: Record<AuthPath, Lazy> = {
  '/login': page(() => import('../features/auth/LoginPage')),
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
};

/** Pages under an area's path, behind the same view permission (path relative to the area). */
const areaChildren: Partial<Record<AreaId, RouteObject[]>> = {
  pipelines: [
    { path: 'new', lazy: page(() => import('../features/pipelines/NewPipelinePage')) },
    { path: 'runs/:runId', lazy: page(() => import('../features/pipelines/RunPage')) },
    { path: ':id', lazy: page(() => import('../features/pipelines/PipelineDetailPage')) },
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
 * page it asked for; an unknown path ends at the router's default fallback with a 404. The
 * layout and everything in it needs a session (RequireAuth).
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
            children: [...ALL_AREAS.map(areaRoute), { path: '/access-denied', element: <AccessDenied /> }],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
