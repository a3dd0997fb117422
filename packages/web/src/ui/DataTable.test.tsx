import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test/render';
import { DataTable, queryStates, type Column, type DataTableProps } from './DataTable';
import { useListParams } from './useListParams';

interface Fruit {
  id: string;
  name: string;
  colour: string;
  stock: number;
}

const FRUITS: Fruit[] = [
  { id: 'a', name: 'Apple', colour: 'red', stock: 3 },
  { id: 'b', name: 'Banana', colour: 'yellow', stock: 12 },
];

const COLUMNS: Column<Fruit>[] = [
  { id: 'name', header: 'Name', cell: (f) => f.name, sortKey: 'name', primary: true },
  { id: 'colour', header: 'Colour', cell: (f) => f.colour, hideBelow: 'sm' },
  { id: 'stock', header: 'Stock', cell: (f) => f.stock, align: 'end', sortKey: 'stock', hideBelow: 'md' },
  { id: 'actions', header: 'Actions', cell: (f) => <button type="button">Eat {f.name}</button> },
];

function renderTable(props: Partial<DataTableProps<Fruit>> = {}) {
  return renderWithI18n(
    <MemoryRouter initialEntries={['/fruits']}>
      <Routes>
        <Route
          path="/fruits"
          element={
            <DataTable
              aria-label="Fruits"
              columns={COLUMNS}
              rows={FRUITS}
              getRowId={(f) => f.id}
              rowTestId="fruit-row"
              {...props}
            />
          }
        />
        <Route path="/fruits/:id" element={<p data-testid="opened">opened</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

/** Answers media queries as a screen `width` pixels wide would, until the test ends. */
function screenWidth(width: number) {
  const original = window.matchMedia;
  window.matchMedia = (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return { ...original(query), matches, media: query };
  };
  restore.push(() => (window.matchMedia = original));
}
const restore: (() => void)[] = [];
afterEach(() => restore.splice(0).forEach((undo) => undo()));

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

describe('data table', () => {
  it('renders a header per column and a row per item, cells filled by the columns', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(headers()).toEqual(['Name', 'Colour', 'Stock', 'Actions']);
    const rows = screen.getAllByTestId('fruit-row');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Banana', 'yellow', '12', 'Eat Banana']);
    expect(getComputedStyle(within(table).getAllByRole('cell')[2]!).textAlign).toBe('end');
  });

  it('makes sortable headers buttons that ask for the other order and mark the sorted column', () => {
    const onSortChange = vi.fn();
    renderTable({ sort: { key: 'name', order: 'asc' }, onSortChange });
    const [name, colour, stock] = screen.getAllByRole('columnheader');
    expect(name!.getAttribute('aria-sort')).toBe('ascending');
    expect(colour!.hasAttribute('aria-sort')).toBe(false);
    expect(within(colour!).queryByRole('button')).toBeNull();
    fireEvent.click(within(name!).getByRole('button', { name: 'Name' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'name', order: 'desc' });
    fireEvent.click(within(stock!).getByRole('button', { name: 'Stock' }));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: 'stock', order: 'asc' });
  });

  it('keeps its sort with useListParams, which asks for it and goes back to the first page', () => {
    function Harness() {
      const list = useListParams({ sizes: [1], sort: { key: 'name', order: 'asc' } });
      return (
        <>
          <output data-testid="params">{new URLSearchParams(list.params).toString()}</output>
          <DataTable
            aria-label="Fruits"
            columns={COLUMNS}
            rows={FRUITS.slice(0, 1)}
            getRowId={(f) => f.id}
            sort={list.sort}
            onSortChange={list.setSort}
            paging={list.paging}
            total={2}
          />
        </>
      );
    }
    renderWithI18n(
      <MemoryRouter>
        <Harness />
      </MemoryRouter>,
    );
    const params = () => screen.getByTestId('params').textContent;
    expect(params()).toBe('_start=0&_end=1&_sort=name');
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(params()).toBe('_start=1&_end=2&_sort=name');
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(params()).toBe('_start=0&_end=1&_sort=name&_order=DESC');
    expect(screen.getAllByRole('columnheader')[0]!.getAttribute('aria-sort')).toBe('descending');
  });

  it('shows skeleton rows under the header while loading', () => {
    renderTable({ loading: true, rows: undefined, skeletonRows: 3 });
    expect(headers()).toEqual(['Name', 'Colour', 'Stock', 'Actions']);
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('data-table-loading').querySelectorAll('tr')).toHaveLength(3);
    expect(screen.queryByTestId('fruit-row')).toBeNull();
  });

  it('shows the empty state instead of the table when there are no rows', () => {
    renderTable({ rows: [], empty: <p>no fruit</p> });
    expect(screen.getByText('no fruit')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the load error with a retry instead of the table', () => {
    const refetch = vi.fn();
    const states = queryStates(
      { error: { status: 500, data: {} }, isLoading: false, isFetching: false, refetch },
      'The fruit could not be loaded.',
    );
    renderTable({ ...states, rows: undefined });
    expect(screen.getByTestId('load-error').textContent).toContain('The fruit could not be loaded.');
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('opens a row from its link with the keyboard', async () => {
    const user = userEvent.setup();
    renderTable({ rowHref: (f) => `/fruits/${f.id}` });
    const link = within(screen.getAllByTestId('fruit-row')[1]!).getByRole('link', { name: 'Banana' });
    expect(link.getAttribute('href')).toBe('/fruits/b');
    await user.tab(); // Apple
    await user.tab(); // Eat Apple
    await user.tab(); // Banana
    expect(document.activeElement).toBe(link);
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('opened')).toBeTruthy();
  });

  it('opens a row clicked anywhere but on its own buttons', () => {
    renderTable({ rowHref: (f) => `/fruits/${f.id}` });
    fireEvent.click(screen.getByRole('button', { name: 'Eat Apple' }));
    expect(screen.queryByTestId('opened')).toBeNull();
    fireEvent.click(screen.getByText('red'));
    expect(screen.getByTestId('opened')).toBeTruthy();
  });

  it('opens a row that is not a page with a click or with Enter on the focused row', async () => {
    const user = userEvent.setup();
    const onRowOpen = vi.fn();
    renderTable({ onRowOpen });
    const [apple] = screen.getAllByTestId('fruit-row');
    expect(apple!.getAttribute('tabindex')).toBe('0');
    fireEvent.click(screen.getByText('Banana'));
    expect(onRowOpen).toHaveBeenLastCalledWith(FRUITS[1]);
    await user.tab();
    expect(document.activeElement).toBe(apple);
    await user.keyboard('{Enter}');
    expect(onRowOpen).toHaveBeenLastCalledWith(FRUITS[0]);
    fireEvent.click(screen.getByRole('button', { name: 'Eat Apple' }));
    expect(onRowOpen).toHaveBeenCalledTimes(2);
  });

  it('highlights the selected rows', () => {
    renderTable({ isRowSelected: (f) => f.id === 'b' });
    const [apple, banana] = screen.getAllByTestId('fruit-row');
    expect(apple!.classList.contains('Mui-selected')).toBe(false);
    expect(banana!.classList.contains('Mui-selected')).toBe(true);
  });

  it('lets columns give way on narrow screens', () => {
    screenWidth(390);
    renderTable();
    expect(headers()).toEqual(['Name', 'Actions']);
    expect(within(screen.getAllByTestId('fruit-row')[0]!).getAllByRole('cell')).toHaveLength(2);
  });

  it('keeps the sm columns on a tablet', () => {
    screenWidth(700);
    renderTable();
    expect(headers()).toEqual(['Name', 'Colour', 'Actions']);
  });

  it('shows the pager only when asked and, with pagerIfNeeded, only for more than one page', () => {
    function Paged({ total }: { total: number }) {
      const list = useListParams({ sizes: [10] });
      return (
        <DataTable
          columns={COLUMNS}
          rows={FRUITS}
          getRowId={(f) => f.id}
          paging={list.paging}
          total={total}
          pagerIfNeeded
        />
      );
    }
    const { rerender } = renderWithI18n(
      <MemoryRouter>
        <Paged total={2} />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('button', { name: /next page/i })).toBeNull();
    rerender(
      <MemoryRouter>
        <Paged total={12} />
      </MemoryRouter>,
    );
    expect(screen.getByText('1–10 of 12')).toBeTruthy();
  });
});
