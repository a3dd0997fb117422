import Link from '@mui/material/Link';
import MuiSkeleton from '@mui/material/Skeleton';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { ApiError } from './api-error';
import { ListPager, type PagerState } from './ListPager';
import { LoadError } from './LoadError';

/** One column of a `DataTable`: its header and how a row fills its cell. */
export interface Column<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The `_sort` value the server sorts this column by; makes the header a sort button. */
  sortKey?: string;
  /** Where the cell's content sits, in the reading direction (`end` is right in English, left in Arabic). */
  align?: 'start' | 'center' | 'end';
  width?: number | string;
  /** Below this breakpoint (`sm` 600 px, `md` 900 px) the column gives its room to the others. */
  hideBelow?: 'sm' | 'md';
  /** With `rowHref`, this column's content is the row's link (the first column when none says so). */
  primary?: boolean;
  /** Extra styles for the column's body cells (monospace, no wrapping, …). */
  sx?: SxProps<Theme>;
}

export type SortOrder = 'asc' | 'desc';
export interface Sort {
  key: string;
  order: SortOrder;
}

/** What `DataTable` shows instead of the rows when they could not be loaded. */
export interface TableLoadError {
  what: string;
  error: ApiError;
  onRetry: () => void;
  retrying?: boolean;
}

export interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  getRowId: (row: Row) => string | number;
  /** Makes each row open this address: its primary cell holds a link (Tab, Enter) and a click anywhere on the row follows it. */
  rowHref?: (row: Row) => string;
  /** Makes each row open something that is not a page (a dialog): the row is a tab stop, and a click or Enter on it calls this. */
  onRowOpen?: (row: Row) => void;
  /** Highlights the rows it answers true for (the task picked elsewhere on the page, say). */
  isRowSelected?: (row: Row) => boolean;
  /** The `data-testid` of every body row. */
  rowTestId?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  caption?: ReactNode;
  /** While true, the header stands over `skeletonRows` placeholder rows. */
  loading?: boolean;
  skeletonRows?: number;
  /** Set when the rows could not be loaded: the load error with a retry replaces the table. */
  error?: TableLoadError | null;
  /** What replaces the table when there are no rows. */
  empty?: ReactNode;
  /** The page state (`usePaging()`/`useListParams().paging`); with `total`, shows the pager under the rows. */
  paging?: PagerState;
  total?: number;
  /** Show the pager only when there is more than one page. */
  pagerIfNeeded?: boolean;
  sort?: Sort | null;
  onSortChange?: (sort: Sort) => void;
  /** Something rendered after the table (a row menu, say), also while empty. */
  children?: ReactNode;
}

/** `DataTable`'s `loading` and `error` from a list query's answer (an RTK Query hook's fits). */
export function queryStates(
  query: {
    data?: unknown;
    error?: ApiError;
    isLoading: boolean;
    isFetching: boolean;
    refetch: () => unknown;
  },
  what: string,
): { loading: boolean; error: TableLoadError | null } {
  const failed = !query.isLoading && query.data === undefined;
  return {
    loading: query.isLoading,
    error: failed
      ? { what, error: query.error, onRetry: () => void query.refetch(), retrying: query.isFetching }
      : null,
  };
}

/** The list states and pager a component wrapping `DataTable` passes through from its page. */
export type TableStates = Pick<
  DataTableProps<unknown>,
  | 'loading'
  | 'skeletonRows'
  | 'error'
  | 'empty'
  | 'paging'
  | 'total'
  | 'pagerIfNeeded'
  | 'sort'
  | 'onSortChange'
>;

const TEXT_ALIGN = { start: 'start', center: 'center', end: 'end' } as const;
const INTERACTIVE = 'a, button, input, select, textarea, label, [role="button"], [role="menuitem"]';

/** Whether each breakpoint a column may hide below is wider than the screen. */
function useNarrow(): Record<'sm' | 'md', boolean> {
  const theme = useTheme();
  const sm = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const md = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  return { sm, md };
}

/**
 * A list as a table, driven by column definitions: sortable headers (server-side, `aria-sort`),
 * rows that open a page, columns that give way on a phone, and the list's states (skeleton rows,
 * load error with retry, empty) and pager. Logical alignment only, so it reads right to left too.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, getRowId, rowHref, onRowOpen, rowTestId, loading, error, empty, children } = props;
  const narrow = useNarrow();
  const navigate = useNavigate();

  if (!loading && error) return <LoadError retrying={false} {...error} />;
  if (!loading && rows && rows.length === 0 && empty !== undefined)
    return (
      <>
        {empty}
        {children}
      </>
    );

  const shown = columns.filter((c) => !c.hideBelow || !narrow[c.hideBelow]);
  const primaryId = rowHref ? (shown.find((c) => c.primary) ?? shown[0])?.id : undefined;
  const cellSx = (c: Column<Row>): SxProps<Theme> => ({
    textAlign: TEXT_ALIGN[c.align ?? 'start'],
    ...(c.width !== undefined ? { width: c.width } : {}),
  });

  const clickRow = (open: () => void) => (e: MouseEvent<HTMLTableRowElement>) => {
    if ((e.target as HTMLElement).closest(INTERACTIVE)) return;
    if (window.getSelection()?.toString()) return;
    open();
  };
  const openerOf = (row: Row, href: string | undefined) => {
    if (href) return () => void navigate(href);
    if (onRowOpen) return () => onRowOpen(row);
    return undefined;
  };

  const pager =
    props.paging &&
    props.total !== undefined &&
    (!props.pagerIfNeeded || props.total > props.paging.rowsPerPage) ? (
      <ListPager paging={props.paging} count={props.total} />
    ) : null;

  return (
    <>
      <TableContainer>
        <Table
          size="small"
          aria-label={props['aria-label']}
          aria-labelledby={props['aria-labelledby']}
          aria-busy={loading || undefined}
        >
          {props.caption ? <caption>{props.caption}</caption> : null}
          <TableHead>
            <TableRow>
              {shown.map((c) => (
                <HeaderCell
                  key={c.id}
                  column={c}
                  sx={cellSx(c)}
                  sort={props.sort}
                  onSortChange={props.onSortChange}
                />
              ))}
            </TableRow>
          </TableHead>
          <TableBody data-testid={loading ? 'data-table-loading' : undefined}>
            {loading
              ? Array.from({ length: props.skeletonRows ?? 4 }, (_, i) => (
                  <TableRow key={i} aria-hidden>
                    {shown.map((c) => (
                      <TableCell key={c.id}>
                        <MuiSkeleton variant="text" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))
              : (rows ?? []).map((row) => {
                  const href = rowHref?.(row);
                  const open = openerOf(row, href);
                  return (
                    <TableRow
                      key={getRowId(row)}
                      data-testid={rowTestId}
                      hover={Boolean(open)}
                      selected={props.isRowSelected?.(row) ?? false}
                      sx={open ? { cursor: 'pointer' } : undefined}
                      onClick={open ? clickRow(open) : undefined}
                      {...(!href && open
                        ? {
                            tabIndex: 0,
                            onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
                              if (e.key === 'Enter' && e.target === e.currentTarget) open();
                            },
                          }
                        : {})}
                    >
                      {shown.map((c) => (
                        <TableCell key={c.id} sx={[cellSx(c), ...(Array.isArray(c.sx) ? c.sx : [c.sx])]}>
                          {href && c.id === primaryId ? (
                            <Link component={RouterLink} to={href}>
                              {c.cell(row)}
                            </Link>
                          ) : (
                            c.cell(row)
                          )}
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })}
          </TableBody>
        </Table>
      </TableContainer>
      {loading ? null : pager}
      {children}
    </>
  );
}

function HeaderCell<Row>({
  column,
  sx,
  sort,
  onSortChange,
}: {
  column: Column<Row>;
  sx: SxProps<Theme>;
  sort: Sort | null | undefined;
  onSortChange: ((sort: Sort) => void) | undefined;
}) {
  const active = Boolean(column.sortKey) && sort?.key === column.sortKey;
  if (!column.sortKey || !onSortChange)
    return (
      <TableCell sx={sx} scope="col">
        {column.header}
      </TableCell>
    );
  const key = column.sortKey;
  return (
    <TableCell sx={sx} scope="col" sortDirection={active ? sort!.order : false}>
      <TableSortLabel
        active={active}
        direction={active ? sort!.order : 'asc'}
        onClick={() => onSortChange({ key, order: active && sort!.order === 'asc' ? 'desc' : 'asc' })}
      >
        {column.header}
      </TableSortLabel>
    </TableCell>
  );
}
