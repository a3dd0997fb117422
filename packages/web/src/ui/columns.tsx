import type { ReactNode } from 'react';
import type { Column } from './DataTable';
import { formatTime } from './format';

/**
 * A `DataTable` column of one moment per row ("last change", "next run"), in the reader's
 * language, never wrapped; `none` stands where a row has no moment.
 */
export function timeColumn<Row>(
  id: string,
  header: ReactNode,
  at: (row: Row) => string | null,
  language: string,
  more: Partial<Column<Row>> & { none?: string } = {},
): Column<Row> {
  const { none = '', ...rest } = more;
  return {
    id,
    header,
    cell: (row) => formatTime(at(row), language) || none,
    sx: { whiteSpace: 'nowrap' },
    ...rest,
  };
}
