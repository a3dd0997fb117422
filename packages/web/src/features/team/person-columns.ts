import type { TFunction } from 'i18next';
import type { Column } from '../../ui/DataTable';

/** A person's full name; their e-mail address when they have none yet. */
export const personName = (p: { firstName: string; lastName: string; email: string }) =>
  `${p.firstName} ${p.lastName}`.trim() || p.email;

/** A member as a list row (for `ActionsTable`, `useConfirmDelete`): its id is the person's. */
export const memberRow = <M extends { userId: string }>(m: M) => ({ ...m, id: m.userId });

/**
 * A members list's name and e-mail columns, sortable (by first name, by address); the address
 * gives its room to the others on a phone.
 */
export function personColumns<Row extends { email: string }>(
  t: TFunction,
  name: (row: Row) => string,
): Column<Row>[] {
  return [
    { id: 'name', header: t('team.columns.name'), cell: name, sortKey: 'firstName' },
    { id: 'email', header: t('team.columns.email'), cell: (m) => m.email, sortKey: 'email', hideBelow: 'sm' },
  ];
}
