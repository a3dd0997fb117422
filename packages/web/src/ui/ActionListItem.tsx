import Box from '@mui/material/Box';
import ListItem, { type ListItemProps } from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';

export interface ActionListItemProps extends Omit<ListItemProps, 'secondaryAction'> {
  /** Buttons at the row's end (the inline end: left in Arabic). */
  actions: ReactNode;
}

/**
 * A list row with its buttons beside the text rather than over it. MUI's `secondaryAction` is
 * positioned over the row and keeps room for one icon only, so a "Rename" button covered a long
 * name and its "Current" chip on a 390 px phone; here the buttons take their own place and move
 * under the text when the row is too narrow for both.
 */
export function ActionListItem({ actions, children, sx, ...props }: ActionListItemProps) {
  return (
    <ListItem divider {...props} sx={[{ gap: 1, flexWrap: 'wrap' }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Box sx={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexShrink: 0, marginInlineStart: 'auto' }}>
        {actions}
      </Stack>
    </ListItem>
  );
}
