import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../test/render';
import { ListPager, PAGE_SIZES, usePaging } from './ListPager';

function Harness({ count, sizes }: { count: number; sizes?: number[] }) {
  const paging = usePaging(sizes);
  return (
    <>
      <output data-testid="range">
        {paging.range._start}-{paging.range._end}
      </output>
      <ListPager paging={paging} count={count} />
    </>
  );
}

describe('list pager', () => {
  it('starts on the first page at the smallest size', () => {
    renderWithI18n(<Harness count={42} />);
    expect(screen.getByTestId('range').textContent).toBe(`0-${PAGE_SIZES[0]}`);
    expect(screen.getByText('1–10 of 42')).toBeTruthy();
  });

  it('moves between pages and asks for the matching range', () => {
    renderWithI18n(<Harness count={42} />);
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getByTestId('range').textContent).toBe('10-20');
    expect(screen.getByText('11–20 of 42')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /previous page/i }));
    expect(screen.getByTestId('range').textContent).toBe('0-10');
  });

  it('goes back to the first page when the page size changes', () => {
    renderWithI18n(<Harness count={42} />);
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getByTestId('range').textContent).toBe('20-30');
    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: '25' }));
    expect(screen.getByTestId('range').textContent).toBe('0-25');
  });

  it('uses a fixed size when given a single one', () => {
    renderWithI18n(<Harness count={30} sizes={[20]} />);
    expect(screen.getByTestId('range').textContent).toBe('0-20');
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    expect(screen.getByTestId('range').textContent).toBe('20-40');
  });
});
