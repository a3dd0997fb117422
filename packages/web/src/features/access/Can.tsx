import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';
import { MESSAGES, type Permission } from '@slipway/contracts';
import { Button, type ButtonProps } from '../../ui/Button';
import { usePermission } from './usePermission';

/** Renders `children(allowed)`, so a caller decides whether to hide or disable. */
export function Can({
  permission,
  environment,
  children,
}: {
  permission: Permission;
  environment?: string;
  children: (allowed: boolean) => ReactNode;
}) {
  const { allowed } = usePermission(permission, environment);
  return children(allowed);
}

/**
 * Wraps an action the caller may not be allowed to take: when not allowed, the action is
 * disabled and its tooltip says 'Action not allowed contact Admin' (spec §6). The wrapper keeps
 * the tooltip reachable by hover and keyboard even though a disabled button takes no events.
 */
export function NotAllowedTooltip({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  if (allowed) return children;
  return (
    <Tooltip title={MESSAGES.actionNotAllowed} describeChild>
      <span tabIndex={0} data-testid="not-allowed" style={{ display: 'inline-flex' }}>
        {children}
      </span>
    </Tooltip>
  );
}

/** A button that needs a permission; disabled with the 'not allowed' tooltip without it. */
export function PermissionButton({
  permission,
  environment,
  disabled,
  ...props
}: ButtonProps & { permission: Permission; environment?: string }) {
  const { allowed, isLoading } = usePermission(permission, environment);
  return (
    <NotAllowedTooltip allowed={allowed || isLoading}>
      <Button {...props} disabled={Boolean(disabled) || !allowed} />
    </NotAllowedTooltip>
  );
}
