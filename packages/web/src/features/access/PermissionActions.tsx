import Add from '@mui/icons-material/Add';
import type { Permission } from '@slipway/contracts';
import type { ButtonProps } from '../../ui/Button';
import type { Column } from '../../ui/DataTable';
import { PermissionButton } from './Can';

/** A page's main "new …" button: contained, with a plus, needing the create permission. */
export function CreateButton({
  permission,
  variant = 'contained',
  ...props
}: ButtonProps & { permission: Permission }) {
  return <PermissionButton permission={permission} variant={variant} startIcon={<Add />} {...props} />;
}

/** One small button of a row's actions, needing a permission. */
export interface RowButton {
  permission: Permission;
  label: string;
  onClick: () => void;
  /** Shown in the error colour (delete). */
  danger?: boolean;
}

/** A row's action buttons (edit, delete, …) side by side, each disabled without its permission. */
export function RowButtons({ buttons }: { buttons: RowButton[] }) {
  return (
    <>
      {buttons.map((b) => (
        <PermissionButton
          key={b.label}
          size="small"
          permission={b.permission}
          {...(b.danger ? { color: 'error' as const } : {})}
          onClick={b.onClick}
        >
          {b.label}
        </PermissionButton>
      ))}
    </>
  );
}

/** The actions column of a list whose rows each carry `RowButtons`. */
export function rowButtonsColumn<Row>(header: string, buttons: (row: Row) => RowButton[]): Column<Row> {
  return {
    id: 'actions',
    header,
    align: 'end',
    sx: { whiteSpace: 'nowrap' },
    cell: (row) => <RowButtons buttons={buttons(row)} />,
  };
}
