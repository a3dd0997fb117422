import type { Permission } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { usePermissionsQuery } from './api';
import { callerAllows } from './permission-check';

/** The caller's grants for the workspace in the auth state (refetched when it changes). */
export function useCallerPermissions() {
  const projectId = useAppSelector((s) => s.auth.projectId);
  return usePermissionsQuery(projectId);
}

export interface PermissionState {
  allowed: boolean;
  /** true until the first answer; nothing should be refused or shown before it */
  isLoading: boolean;
  isError: boolean;
}

/** May the caller do this (in this environment, when one is named)? */
export function usePermission(permission: Permission, environment?: string): PermissionState {
  const { data, isLoading, isError } = useCallerPermissions();
  return { allowed: callerAllows(data, permission, environment), isLoading, isError };
}

/** A function answering many questions at once, for tables with several row actions. */
export function useCan() {
  const { data } = useCallerPermissions();
  return (permission: Permission, environment?: string) => callerAllows(data, permission, environment);
}

/**
 * Does the caller hold the permission in the current workspace? For permissions whose resource
 * is an organisation one but which a workspace role grants there, such as a project admin's
 * members permissions (checked by the workspace's own routes, `/api/workspace/members`).
 */
export function useCanInWorkspace() {
  const { data } = useCallerPermissions();
  return (permission: Permission) => Boolean(data?.workspace.some((g) => g.permission === permission));
}
