import { waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { opts } from './settings-peer';

/** The text of each row with this test id, in order (waits for the first). */
export async function rowTexts(rowTestId: string, scope: HTMLElement = document.body): Promise<string[]> {
  return (await within(scope).findAllByTestId(rowTestId, {}, opts)).map((r) => r.textContent ?? '');
}

/**
 * Clicks the sort button of the column headed `column`, then waits until the first row with
 * `rowTestId` shows `first` and the header says it sorts that way (`aria-sort`).
 */
export async function sortByHeader(
  user: ReturnType<typeof userEvent.setup>,
  column: string,
  rowTestId: string,
  first: string,
  order: 'ascending' | 'descending',
  scope: HTMLElement = document.body,
) {
  const header = within(scope).getByRole('columnheader', { name: column });
  await user.click(within(header).getByRole('button', { name: column }));
  await waitFor(async () => expect((await rowTexts(rowTestId, scope))[0]).toContain(first), opts);
  expect(within(scope).getByRole('columnheader', { name: column }).getAttribute('aria-sort')).toBe(order);
}
