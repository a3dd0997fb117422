import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState, type ReactNode } from 'react';
import type { Column } from './DataTable';

/** One entry of a row's action menu. */
export interface RowMenuItem<A extends string> {
  action: A;
  label: ReactNode;
  disabled?: boolean;
  /** Shown in the error colour (delete). */
  danger?: boolean;
}

/**
 * A list's per-row action menu: `column(header, label)` is the actions column (a "more" button
 * named `label(row)` on each row) and `menu` the menu it opens, to render once beside the table
 * (`DataTable`'s children). Choosing an entry calls `onAction(action, row)` and closes the menu.
 */
export function useRowMenu<Row, A extends string>({
  items,
  onAction,
}: {
  items: (row: Row) => RowMenuItem<A>[];
  onAction: (action: A, row: Row) => void;
}): { column: (header: ReactNode, label: (row: Row) => string) => Column<Row>; menu: ReactNode } {
  const [open, setOpen] = useState<{ anchor: HTMLElement; row: Row } | null>(null);
  const choose = (action: A) => {
    if (open) onAction(action, open.row);
    setOpen(null);
  };
  const column = (header: ReactNode, label: (row: Row) => string): Column<Row> => ({
    id: 'actions',
    header,
    align: 'end',
    cell: (row) => (
      <IconButton
        aria-label={label(row)}
        aria-haspopup="menu"
        onClick={(e) => setOpen({ anchor: e.currentTarget, row })}
      >
        <MoreVert />
      </IconButton>
    ),
  });
  const menu = (
    <Menu anchorEl={open?.anchor} open={Boolean(open)} onClose={() => setOpen(null)}>
      {open
        ? items(open.row).map((item) => (
            <MenuItem
              key={item.action}
              disabled={item.disabled}
              onClick={() => choose(item.action)}
              sx={item.danger ? { color: 'error.main' } : undefined}
            >
              {item.label}
            </MenuItem>
          ))
        : null}
    </Menu>
  );
  return { column, menu };
}
