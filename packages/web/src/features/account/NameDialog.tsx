import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { workspaceRequestSchema } from '@slipway/contracts';
import type { ApiError } from '../../ui/api-error';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';

/** Asks for a name (a new workspace, or renaming one or the organisation) with the name rule of spec §5. */
export function NameDialog({
  title,
  submitLabel,
  initial = '',
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (name: string) => Promise<{ error?: ApiError }>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useFormFields({ name: initial });
  const submit = form.handleSubmit({
    schema: workspaceRequestSchema,
    mutate: (body) => onSubmit(body.name),
    onSuccess: () => onClose(),
  });

  return (
    <FormDialog
      id="name-dialog"
      form={form}
      title={title}
      submitLabel={submitLabel}
      onSubmit={submit}
      onClose={onClose}
      maxWidth="xs"
    >
      <TextField {...form.field('name')} label={t('account.name')} autoFocus fullWidth />
    </FormDialog>
  );
}
