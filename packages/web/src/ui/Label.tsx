import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

export interface LabelProps {
  children: ReactNode;
  /** The form control this labels. */
  htmlFor?: string;
  startIcon?: ReactNode;
  endIcon?: ReactNode;
  required?: boolean;
}

/** A label with optional icons before and after its text. */
export function Label({ children, htmlFor, startIcon, endIcon, required }: LabelProps) {
  return (
    <Box
      component="label"
      htmlFor={htmlFor}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, fontWeight: 500, fontSize: 14 }}
    >
      {startIcon}
      <span>
        {children}
        {required ? (
          <Box component="span" aria-hidden sx={{ color: 'error.main', ml: 0.25 }}>
            *
          </Box>
        ) : null}
      </span>
      {endIcon}
    </Box>
  );
}
