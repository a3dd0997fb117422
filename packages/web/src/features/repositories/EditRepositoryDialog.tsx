import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { repositoryUpdateSchema, type Repository } from '@slipway/contracts';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useUpdateRepositoryMutation } from './api';
import { LTR_INPUT } from './NewRepositoryDialog';

/** A repository's description and default branch, the two things that change (its name is in its URL). */
export function EditRepositoryDialog({
  repository,
  onClose,
}: {
  repository: Repository;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [update] = useUpdateRepositoryMutation();
  const form = useFormFields(
    { description: repository.description, defaultBranch: repository.defaultBranch },
    { idPrefix: 'repository-edit' },
  );
  const onSubmit = form.handleSubmit({
    schema: repositoryUpdateSchema,
    mutate: (body) => update({ id: repository.id, body }),
    onSuccess: () => onClose(),
  });
  return (
    <FormDialog
      id="repository-edit"
      form={form}
      title={t('repositories.form.editTitle', { name: repository.name })}
      submitLabel={t('repositories.form.save')}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextField
        {...form.field('description')}
        label={t('repositories.form.description')}
        autoFocus
        fullWidth
        multiline
      />
      <TextField
        {...form.field('defaultBranch')}
        label={t('repositories.form.defaultBranch')}
        fullWidth
        slotProps={LTR_INPUT}
      />
    </FormDialog>
  );
}
