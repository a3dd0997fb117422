import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import type { Permission } from '@slipway/contracts';
import { AccessDenied } from '../../ui/AccessDenied';
import { LoadingPage } from '../../ui/LoadingPage';
import { usePermission } from './usePermission';

/**
 * A page that needs a permission: the page (children, or the child route) when the caller holds
 * it, the access denied screen when not (spec §6), the loading page until the grants arrive.
 */
export function RequirePermission({
  permission,
  children,
}: {
  permission: Permission;
  children?: ReactNode;
}) {
  const { allowed, isLoading } = usePermission(permission);
  if (isLoading) return <LoadingPage />;
  if (!allowed) return <AccessDenied />;
  return children ?? <Outlet />;
}
