import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn, ActionsTable } from '../../ui/ActionsTable';
import type { Column, TableStates } from '../../ui/DataTable';
import { AllowedActions } from '../access/AllowedButton';
import { useCan } from '../access/usePermission';

/**
 * A list of the workspace's named values (secrets, variables, config maps): the given columns,
 * then Edit and Delete on each row, which need the secrets permissions.
 */
export function KeyValueTable<Row extends { id: string }>({
  label,
  rows,
  rowTestId,
  columns,
  onEdit,
  onDelete,
  states,
  children,
}: {
  label: string;
  rows: readonly Row[] | undefined;
  rowTestId: string;
  columns: Column<Row>[];
  onEdit: (row: Row) => void;
  onDelete: (row: Row) => void;
  /** The list's loading, error and empty states and its pager. */
  states: TableStates;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const [edit, remove] = [t('secretsPage.edit'), t('secretsPage.delete')];
  const actions = actionsColumn<Row>(t('secretsPage.columns.actions'), (row) => (
    <AllowedActions
      actions={[
        { allowed: can('secrets:edit'), label: edit, name: edit, onClick: () => onEdit(row) },
        {
          allowed: can('secrets:delete'),
          label: remove,
          name: remove,
          onClick: () => onDelete(row),
          danger: true,
        },
      ]}
    />
  ));
  return (
    <ActionsTable
      label={label}
      columns={columns}
      actions={actions}
      rows={rows}
      rowTestId={rowTestId}
      states={{ skeletonRows: 5, ...states }}
    >
      {children}
    </ActionsTable>
  );
}
