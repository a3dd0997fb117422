import type SvgIcon from '@mui/material/SvgIcon';
import type { ComponentProps, ElementType } from 'react';

export interface IconProps extends Omit<ComponentProps<typeof SvgIcon>, 'component'> {
  /** An icon component from @mui/icons-material (import it by path to keep bundles small). */
  icon: ElementType;
  /** Read out by screen readers; without it the icon is decorative and hidden from them. */
  label?: string;
}

/** One way to show an icon: decorative unless it has a label. */
export function Icon({ icon: Component, label, ...rest }: IconProps) {
  return label ? (
    <Component role="img" aria-label={label} titleAccess={label} {...rest} />
  ) : (
    <Component aria-hidden focusable="false" {...rest} />
  );
}
