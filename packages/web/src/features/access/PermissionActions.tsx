import Add from '@mui/icons-material/Add';
import type { Permission } from '@slipway/contracts';
import type { ButtonProps } from '../../ui/Button';
import { PermissionButton } from './Can';

/** A page's main "new …" button: contained, with a plus, needing the create permission. */
export function CreateButton({
  permission,
  variant = 'contained',
  ...props
}: ButtonProps & { permission: Permission }) {
  return <PermissionButton permission={permission} variant={variant} startIcon={<Add />} {...props} />;
}
