import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A page's h1 title with the page's actions on the same line, at its end. */
function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
        {title}
      </Typography>
      {actions}
    </Box>
  );
}

/**
 * The shell of an area's page: a box named `area-<id>` (or `testId`), an h1 title and the area's
 * actions.
 */
export function AreaPage({
  id,
  testId,
  title,
  actions,
  maxWidth = 1200,
  children,
}: {
  id: string;
  testId?: string;
  title: string;
  actions?: ReactNode;
  /** How wide the page grows (settings pages stay narrower than lists). */
  maxWidth?: number;
  children: ReactNode;
}) {
  return (
    <Box data-testid={testId ?? `area-${id}`} sx={{ maxWidth, display: 'grid', gap: 3 }}>
      <PageHeader title={title} actions={actions} />
      {children}
    </Box>
  );
}
