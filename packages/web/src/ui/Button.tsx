import MuiButton, { type ButtonProps as MuiButtonProps } from '@mui/material/Button';
import type { ElementType } from 'react';

export type ButtonProps<C extends ElementType = 'button'> = MuiButtonProps<C, { component?: C }> & {
  /** Shows a spinner, disables the button and marks it busy while work is under way. */
  loading?: boolean;
};

/** The app's button: MUI's, with a loading state that also tells assistive technology. */
export function Button<C extends ElementType = 'button'>({
  loading = false,
  disabled,
  children,
  ...rest
}: ButtonProps<C>) {
  return (
    <MuiButton {...rest} loading={loading} disabled={disabled || loading} aria-busy={loading || undefined}>
      {children}
    </MuiButton>
  );
}
