import { Button, type ButtonProps } from '../../ui/Button';
import { NotAllowedTooltip } from './Can';

/**
 * A button whose permission the caller has already checked (`allowed`): disabled, with the
 * 'not allowed' tooltip, when the viewer may not press it.
 */
export function AllowedButton({ allowed, disabled, ...props }: ButtonProps & { allowed: boolean }) {
  return (
    <NotAllowedTooltip allowed={allowed}>
      <Button {...props} disabled={Boolean(disabled) || !allowed} />
    </NotAllowedTooltip>
  );
}

/** One small button of a row's actions, named for its row ("Edit role Deployer"). */
export interface AllowedAction {
  allowed: boolean;
  label: string;
  /** What the button is called for assistive technology: the action and the row. */
  name: string;
  onClick: () => void;
  /** Shown in the error colour (delete, revoke). */
  danger?: boolean;
}

/** A row's action buttons side by side, each disabled with the tooltip when not allowed. */
export function AllowedActions({ actions }: { actions: AllowedAction[] }) {
  return (
    <>
      {actions.map((a) => (
        <AllowedButton
          key={a.label}
          size="small"
          allowed={a.allowed}
          {...(a.danger ? { color: 'error' as const } : {})}
          onClick={a.onClick}
          aria-label={a.name}
        >
          {a.label}
        </AllowedButton>
      ))}
    </>
  );
}
