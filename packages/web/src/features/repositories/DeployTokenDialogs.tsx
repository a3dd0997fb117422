import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEPLOY_TOKEN_ACCESS,
  deployTokenCreateSchema,
  type DeployTokenCreated,
  type Repository,
} from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormDialog } from '../../ui/FormDialog';
import { SelectField } from '../../ui/SelectField';
import { CopyField, ShownOnceDialog, useCopy } from '../../ui/ShownOnceDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateDeployTokenMutation } from './api';
import { CODE_SX, urlWithToken } from './CloneSection';

/** A new deploy token of a hosted repository: its name, read or write, and days until it expires. */
export function NewDeployTokenDialog({
  repository,
  onClose,
  onCreated,
}: {
  repository: Repository;
  onClose: () => void;
  onCreated: (created: DeployTokenCreated) => void;
}) {
  const { t } = useTranslation();
  const [create] = useCreateDeployTokenMutation();
  const form = useFormFields({ name: '', access: 'read', expiresInDays: '90' }, { idPrefix: 'deploy-token' });
  const onSubmit = form.handleSubmit({
    schema: deployTokenCreateSchema,
    check: () => ({
      expiresInDays: /^\s*\d+\s*$/.test(form.values.expiresInDays)
        ? undefined
        : t('repositories.tokens.form.daysNumber'),
    }),
    mutate: (body) => create({ id: repository.id, body }),
    onSuccess: (created) => onCreated(created),
  });
  return (
    <FormDialog
      id="deploy-token-create"
      form={form}
      title={t('repositories.tokens.form.title')}
      submitLabel={t('repositories.tokens.form.create')}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextField {...form.field('name')} label={t('repositories.tokens.form.name')} autoFocus fullWidth />
      <SelectField
        {...form.field('access')}
        label={t('repositories.tokens.form.access')}
        fullWidth
        options={DEPLOY_TOKEN_ACCESS.map((a) => ({ value: a, label: t(`repositories.tokens.access.${a}`) }))}
      />
      <TextField
        {...form.field('expiresInDays')}
        helperText={form.errors.expiresInDays ?? t('repositories.tokens.form.expiresHelp')}
        label={t('repositories.tokens.form.expiresInDays')}
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
    </FormDialog>
  );
}

/** The new deploy token, shown this once with a copy button and the clone command that uses it. */
export function DeployTokenShownDialog({
  repository,
  token,
  onClose,
}: {
  repository: Repository;
  token: DeployTokenCreated;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const { notice, copy } = useCopy('repositories.tokens.shown');
  return (
    <ShownOnceDialog
      id="deploy-token-shown"
      testId="deploy-token-dialog"
      title={t('repositories.tokens.shown.title', { name: token.name })}
      warning={t('repositories.tokens.shown.warning')}
      notice={notice}
      doneLabel={t('repositories.tokens.shown.done')}
      onClose={onClose}
      actions={
        <Button onClick={() => void copy(token.token, input.current)} variant="outlined">
          {t('repositories.tokens.shown.copy')}
        </Button>
      }
    >
      <CopyField
        inputRef={input}
        id="deploy-token-value"
        label={t('repositories.tokens.shown.label')}
        value={token.token}
      />
      <Typography variant="body2" color="text.secondary">
        {t('repositories.tokens.shown.usage')}
      </Typography>
      <Box component="pre" dir="ltr" sx={{ ...CODE_SX, m: 0, fontSize: '0.875rem' }}>
        {`git clone ${urlWithToken(repository.url, token.token)}`}
      </Box>
    </ShownOnceDialog>
  );
}
