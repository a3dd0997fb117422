import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { AccessDenied } from '../ui/AccessDenied';
import { LoadingPage } from '../ui/LoadingPage';
import { RouterErrorFallback } from '../ui/RouterErrorFallback';
import { ALL_AREAS, AUTH_PATHS } from './navigation';

const layout = async () => ({ Component: (await import('./layout/AppLayout')).default });
const comingSoon = async () => ({ Component: (await import('../features/areas/ComingSoonPage')).default });
const authPage = async () => ({ Component: (await import('../features/auth/AuthPlaceholderPage')).default });

/**
 * Every route of the app. Pages load lazily, so a first visit downloads only the shell and the
 * page it asked for; an unknown path ends at the router's default fallback with a 404.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Outlet />,
    errorElement: <RouterErrorFallback />,
    hydrateFallbackElement: <LoadingPage />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      ...AUTH_PATHS.map((path) => ({ path, lazy: authPage })),
      {
        lazy: layout,
        children: [
          ...ALL_AREAS.map((area) => ({ path: area.path, handle: { area: area.id }, lazy: comingSoon })),
          { path: '/access-denied', element: <AccessDenied /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
