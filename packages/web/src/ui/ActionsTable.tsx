import type { ReactNode } from 'react';
import { DataTable, type Column, type TableStates } from './DataTable';

/**
 * A list of rows with ids, named `label`: the given columns, then `actions`, the column of what
 * each row can do (buttons, a menu); `children` render beside the table (the menu those open).
 */
export function ActionsTable<Row extends { id: string }>({
  label,
  columns,
  actions,
  rows,
  rowTestId,
  states,
  children,
}: {
  label: string;
  columns: Column<Row>[];
  actions: Column<Row>;
  rows: readonly Row[] | undefined;
  rowTestId: string;
  /** The list's loading, error and empty states and its pager. */
  states?: TableStates;
  children?: ReactNode;
}) {
  return (
    <DataTable
      aria-label={label}
      columns={[...columns, actions]}
      rows={rows}
      getRowId={(row) => row.id}
      rowTestId={rowTestId}
      {...states}
    >
      {children}
    </DataTable>
  );
}

/** The column of what each row can do (`cell`), at the row's end and never wrapped. */
export function actionsColumn<Row>(header: string, cell: (row: Row) => ReactNode): Column<Row> {
  return { id: 'actions', header, align: 'end', sx: { whiteSpace: 'nowrap' }, cell };
}
