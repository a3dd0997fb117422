import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test/render';
import { ListStates, type ListQuery } from './ListStates';

function renderList<T extends { total: number } | readonly unknown[]>(query: ListQuery<T>) {
  return renderWithI18n(
    <ListStates query={query} lines={3} what="The widgets could not be loaded." empty={<p>no widgets</p>}>
      {(data) => <p>{'total' in data ? `${data.total} widgets` : `${data.length} items`}</p>}
    </ListStates>,
  );
}

const idle = { isLoading: false, isFetching: false, refetch: () => undefined };

describe('list states', () => {
  it('shows a skeleton while loading', () => {
    const { container } = renderList({ ...idle, isLoading: true });
    expect(container.querySelectorAll('.MuiSkeleton-root')).toHaveLength(3);
    expect(screen.queryByText(/widgets/)).toBeNull();
  });

  it('shows the load error with a retry when there is no data', () => {
    const refetch = vi.fn();
    renderList({ ...idle, refetch, error: { status: 500, data: {} } });
    expect(screen.getByTestId('load-error').textContent).toContain('The widgets could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the empty state for an empty page', () => {
    renderList({ ...idle, data: { total: 0 } });
    expect(screen.getByText('no widgets')).toBeTruthy();
  });

  it('shows the empty state for an empty array', () => {
    renderList({ ...idle, data: [] });
    expect(screen.getByText('no widgets')).toBeTruthy();
  });

  it('renders the list otherwise', () => {
    renderList({ ...idle, data: { total: 2 } });
    expect(screen.getByText('2 widgets')).toBeTruthy();
    renderList({ ...idle, data: ['a'] });
    expect(screen.getByText('1 items')).toBeTruthy();
  });
});
