import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ElementType, ReactNode } from 'react';
import { Icon } from './Icon';

export interface EmptyStateProps {
  icon?: ElementType;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}

/** What a list or page shows when it has nothing to show. */
export function EmptyState({ icon, title, children, action }: EmptyStateProps) {
  return (
    <Box
      data-testid="empty-state"
      sx={{
        border: 1,
        borderColor: 'divider',
        borderStyle: 'dashed',
        borderRadius: 2,
        p: { xs: 3, md: 5 },
        textAlign: 'center',
        display: 'grid',
        justifyItems: 'center',
        gap: 1.5,
      }}
    >
      {icon ? <Icon icon={icon} sx={{ fontSize: 48, color: 'text.secondary' }} /> : null}
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
      {action}
    </Box>
  );
}
