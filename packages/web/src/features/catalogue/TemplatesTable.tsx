import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { timeColumn } from '../../ui/columns';
import { actionsColumn, ActionsTable } from '../../ui/ActionsTable';
import type { TableStates } from '../../ui/DataTable';

interface TemplateRow {
  id: string;
  name: string;
  description: string;
  version: number;
  updatedAt: string;
}

/**
 * Templates (pipeline or task) as rows: name, description, version and last change, then the
 * row's buttons. On a phone only the name and the buttons stay.
 */
export function TemplatesTable<Row extends TemplateRow>({
  label,
  rows,
  rowTestId,
  name = (row) => row.name,
  sortable = false,
  actions,
  states,
}: {
  label: string;
  rows: readonly Row[] | undefined;
  rowTestId: string;
  /** The name cell (the name alone unless given). */
  name?: (row: Row) => ReactNode;
  /** Whether the headers sort the list (name, description, version, last change), on the server or in the page. */
  sortable?: boolean;
  actions: (row: Row) => ReactNode;
  /** The list's loading, error and empty states and its pager. */
  states: TableStates;
}) {
  const { t, i18n } = useTranslation();
  const sortKey = (key: string) => (sortable ? { sortKey: key } : {});
  return (
    <ActionsTable<Row>
      label={label}
      columns={[
        { id: 'name', header: t('catalogue.name'), cell: name, ...sortKey('name') },
        {
          id: 'description',
          header: t('catalogue.description'),
          cell: (row) => row.description,
          hideBelow: 'sm',
          ...sortKey('description'),
        },
        {
          id: 'version',
          header: t('catalogue.version'),
          cell: (row) => row.version,
          hideBelow: 'sm',
          ...sortKey('version'),
        },
        timeColumn<Row>('updated', t('catalogue.updated'), (row) => row.updatedAt, i18n.language, {
          hideBelow: 'sm',
          ...sortKey('updatedAt'),
        }),
      ]}
      actions={actionsColumn(t('catalogue.actions'), actions)}
      rows={rows}
      rowTestId={rowTestId}
      states={{ skeletonRows: 5, ...states }}
    />
  );
}
