import TablePagination from '@mui/material/TablePagination';
import { useState } from 'react';

/** The page sizes a list offers, smallest (the default) first. */
export const PAGE_SIZES = [10, 25, 50];

export interface Paging {
  page: number;
  rowsPerPage: number;
  sizes: number[];
  /** The `_start`/`_end` query values of the current page. */
  range: { _start: string; _end: string };
  setPage: (page: number) => void;
  /** Changes the page size and goes back to the first page. */
  setRowsPerPage: (size: number) => void;
}

/** What the pager needs of a list's paging: the page, its size, the sizes offered, and how to change them. */
export type PagerState = Pick<Paging, 'page' | 'rowsPerPage' | 'sizes' | 'setPage' | 'setRowsPerPage'>;

/** A list's page and page size; `sizes[0]` is the initial size. */
export function usePaging(sizes: number[] = PAGE_SIZES): Paging {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setSize] = useState(sizes[0]!);
  return {
    page,
    rowsPerPage,
    sizes,
    range: { _start: String(page * rowsPerPage), _end: String((page + 1) * rowsPerPage) },
    setPage,
    setRowsPerPage: (size) => {
      setSize(size);
      setPage(0);
    },
  };
}

/** The pagination row under a list, driven by `usePaging()`. */
export function ListPager({ paging, count }: { paging: PagerState; count: number }) {
  return (
    <TablePagination
      component="div"
      count={count}
      page={paging.page}
      rowsPerPage={paging.rowsPerPage}
      rowsPerPageOptions={paging.sizes}
      onPageChange={(_e, p) => paging.setPage(p)}
      onRowsPerPageChange={(e) => paging.setRowsPerPage(Number(e.target.value))}
      // on a phone the page buttons go under the page size rather than past the screen's edge
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap' } }}
    />
  );
}
