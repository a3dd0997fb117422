import type { TextFieldProps } from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { Role } from '@slipway/contracts';
import { namedOptions, SelectField } from '../../ui/SelectField';

/** The 'Workspace role' choice of a form (a `useFormFields` field), from `roles`. */
export function WorkspaceRoleSelect({
  field,
  roles,
  id,
}: {
  field: Pick<TextFieldProps, 'name' | 'id' | 'value' | 'onChange' | 'error' | 'helperText'>;
  roles: Pick<Role, 'id' | 'name'>[];
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      {...field}
      {...(id ? { id } : {})}
      label={t('team.workspaceRole')}
      fullWidth
      options={namedOptions(roles)}
    />
  );
}
