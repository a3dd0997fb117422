import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn, ActionsTable } from './ActionsTable';
import type { Column, TableStates } from './DataTable';

/** One entry of a row's action menu. */
export interface RowMenuItem<A extends string> {
  action: A;
  label: ReactNode;
  disabled?: boolean;
  /** Shown in the error colour (delete). */
  danger?: boolean;
}

/**
 * A list whose rows each end in a "more" button (named `menuLabel(row)`, under the Actions
 * header) opening that row's action menu, `items(row)`; choosing an entry calls
 * `onAction(action, row)` and closes the menu.
 */
export function MenuTable<Row extends { id: string }, A extends string>({
  label,
  columns,
  rows,
  rowTestId,
  items,
  menuLabel,
  onAction,
  states,
}: {
  label: string;
  columns: Column<Row>[];
  rows: readonly Row[] | undefined;
  rowTestId: string;
  items: (row: Row) => RowMenuItem<A>[];
  menuLabel: (row: Row) => string;
  onAction: (action: A, row: Row) => void;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<{ anchor: HTMLElement; row: Row } | null>(null);
  const choose = (action: A) => {
    if (open) onAction(action, open.row);
    setOpen(null);
  };
  const actions = actionsColumn<Row>(t('common.actions'), (row) => (
    <IconButton
      aria-label={menuLabel(row)}
      aria-haspopup="menu"
      onClick={(e) => setOpen({ anchor: e.currentTarget, row })}
    >
      <MoreVert />
    </IconButton>
  ));
  return (
    <ActionsTable
      label={label}
      columns={columns}
      actions={actions}
      rows={rows}
      rowTestId={rowTestId}
      states={states}
    >
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
    </ActionsTable>
  );
}

/** What a feature's `MenuTable` takes from its page: the list's states and the row actions. */
export interface RowActionProps<Row, A extends string> {
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  /** Whether the caller may take the action (else its entry is disabled). */
  allowed: (action: A) => boolean;
  onAction: (action: A, row: Row) => void;
}
