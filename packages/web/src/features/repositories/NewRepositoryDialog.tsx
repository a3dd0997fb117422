import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import {
  REPOSITORY_KINDS,
  repositoryCreateSchema,
  type RepositoryDetail,
  type RepositoryKind,
} from '@slipway/contracts';
import { errorMessage, errorStatus } from '../../ui/api-error';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateRepositoryMutation } from './api';

/** Monospace input text that stays left-to-right in Arabic (a URL, a branch). */
export const LTR_INPUT = { htmlInput: { dir: 'ltr' }, input: { sx: { fontFamily: 'monospace' } } } as const;

/**
 * A new repository: hosted in Slipway (name, description, default branch) or an external one
 * recorded by its URL (name, URL, description). The contract's messages show under their fields;
 * the server's too, a taken name under the name.
 */
export function NewRepositoryDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (created: RepositoryDetail) => void;
}) {
  const { t } = useTranslation();
  const [create] = useCreateRepositoryMutation();
  const form = useFormFields(
    { kind: 'hosted' as RepositoryKind, name: '', description: '', url: '', defaultBranch: 'main' },
    { idPrefix: 'repository' },
  );
  const v = form.values;
  const hosted = v.kind === 'hosted';
  const onSubmit = form.handleSubmit({
    schema: repositoryCreateSchema,
    input: {
      kind: v.kind,
      name: v.name,
      description: v.description,
      ...(hosted ? { defaultBranch: v.defaultBranch } : { url: v.url }),
    },
    mutate: (body) => create(body),
    onSuccess: (created) => onCreated(created),
    onError: (error) => {
      // the name is taken: the API says so without a field, but it is the name's problem
      if (errorStatus(error) !== 409) return false;
      form.showErrors({ name: errorMessage(error) });
      return true;
    },
  });

  return (
    <FormDialog
      id="repository-create"
      form={form}
      title={t('repositories.form.createTitle')}
      submitLabel={t('repositories.form.create')}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('repositories.form.kind')}</FormLabel>
        <RadioGroup
          row
          name="kind"
          value={v.kind}
          onChange={(e) => form.setValue('kind', e.target.value as RepositoryKind)}
          aria-describedby="repository-kind-help"
        >
          {REPOSITORY_KINDS.map((kind) => (
            <FormControlLabel
              key={kind}
              value={kind}
              control={<Radio />}
              label={
                kind === 'hosted' ? t('repositories.form.kindHosted') : t('repositories.form.kindExternal')
              }
            />
          ))}
        </RadioGroup>
        <FormHelperText id="repository-kind-help" sx={{ mx: 0 }}>
          {hosted ? t('repositories.form.kindHostedHelp') : t('repositories.form.kindExternalHelp')}
        </FormHelperText>
      </FormControl>
      <TextField
        {...form.field('name')}
        helperText={form.errors.name ?? t('repositories.form.nameHelp')}
        label={t('repositories.form.name')}
        autoFocus
        fullWidth
        slotProps={{ htmlInput: { dir: 'ltr', autoCapitalize: 'none', spellCheck: false } }}
      />
      {hosted ? null : (
        <TextField
          {...form.field('url')}
          helperText={form.errors.url ?? t('repositories.form.urlHelp')}
          label={t('repositories.form.url')}
          type="url"
          fullWidth
          slotProps={LTR_INPUT}
        />
      )}
      <TextField
        {...form.field('description')}
        label={t('repositories.form.description')}
        fullWidth
        multiline
      />
      {hosted ? (
        <TextField
          {...form.field('defaultBranch')}
          label={t('repositories.form.defaultBranch')}
          fullWidth
          slotProps={LTR_INPUT}
        />
      ) : null}
    </FormDialog>
  );
}
