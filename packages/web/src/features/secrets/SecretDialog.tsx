import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SECRET_TYPES, secretNameSchema, type Secret, type SecretType } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
import { useCreateSecretMutation, useUpdateSecretMutation } from './api';
import { selectOptions } from '../../ui/select-options';

interface KeyRow {
  id: number;
  key: string;
  value: string;
  /** a key the secret already has: an empty value keeps it */
  existing: boolean;
  removed: boolean;
}

/**
 * Creates or changes a secret. Values are write-only: an existing key shows only its name, and
 * its value changes only when a new one is typed; keys can be added and removed.
 */
export function SecretDialog({ secret, onClose }: { secret: Secret | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const form = useFormFields({
    name: secret?.name ?? '',
    description: secret?.description ?? '',
    type: secret?.type ?? ('generic' as SecretType),
    global: secret?.global ?? false,
    values: secret
      ? secret.keys.map((key, i): KeyRow => ({ id: i, key, value: '', existing: true, removed: false }))
      : [{ id: 0, key: 'value', value: '', existing: false, removed: false }],
  });
  const [create] = useCreateSecretMutation();
  const [update] = useUpdateSecretMutation();
  const { name, description, type, global, values: rows } = form.values;
  const live = rows.filter((r) => !r.removed);

  function patch(rowId: number, change: Partial<KeyRow>) {
    form.setValue(
      'values',
      rows.map((r) => (r.id === rowId ? { ...r, ...change } : r)),
    );
  }

  const submit = form.handleSubmit({
    check: () => {
      const nameCheck = secretNameSchema.safeParse(name);
      const noValue = !secret && !live.some((r) => r.key.trim() && r.value !== '');
      return {
        name: nameCheck.success ? undefined : nameCheck.error.issues[0]!.message,
        values: noValue ? t('secretsPage.needsValue') : undefined,
      };
    },
    mutate: () => {
      if (!secret) {
        const values = Object.fromEntries(
          live.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]),
        );
        return create({ name: name.trim(), description, type, global, values });
      }
      const values: Record<string, string | null> = {};
      for (const r of rows) {
        if (r.removed && r.existing) values[r.key] = null;
        else if (!r.removed && r.key.trim() && r.value !== '') values[r.key.trim()] = r.value;
      }
      return update({
        id: secret.id,
        body: {
          ...(name.trim() !== secret.name ? { name: name.trim() } : {}),
          description,
          type,
          global,
          ...(Object.keys(values).length ? { values } : {}),
        },
      });
    },
    onSuccess: () => onClose(),
  });
  const withLine = (props: { helperText?: string }) => ({ ...props, helperText: props.helperText ?? ' ' });

  return (
    <FormDialog
      id={id}
      title={secret ? t('secretsPage.editTitle', { name: secret.name }) : t('secretsPage.newSecret')}
      lead={<FormAlert message={form.formError} testId="secret-error" />}
      submitLabel={secret ? t('secretsPage.save') : t('secretsPage.create')}
      busy={form.submitting}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField {...withLine(form.field('name'))} label={t('secretsPage.name')} required />
      <TextField {...withLine(form.field('description'))} label={t('secretsPage.description')} />
      <TextField
        select
        label={t('secretsPage.type')}
        value={type}
        onChange={(e) => form.setValue('type', e.target.value as SecretType)}
      >
        {selectOptions(SECRET_TYPES, (ty) => [ty, t(`secretsPage.types.${ty}`)])}
      </TextField>
      <FormControlLabel
        control={<Checkbox checked={global} onChange={(e) => form.setValue('global', e.target.checked)} />}
        label={t('secretsPage.global')}
      />
      <Typography variant="subtitle2" component="h3">
        {t('secretsPage.values')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {secret ? t('secretsPage.valuesEditHelp') : t('secretsPage.valuesHelp')}
      </Typography>
      {rows.map((r) =>
        r.removed ? null : (
          <Stack key={r.id} direction="row" spacing={1} alignItems="center" data-testid="secret-key-row">
            <TextField
              size="small"
              label={t('secretsPage.key')}
              value={r.key}
              disabled={r.existing}
              onChange={(e) => patch(r.id, { key: e.target.value })}
            />
            <TextField
              size="small"
              fullWidth
              type="password"
              autoComplete="new-password"
              label={r.existing ? t('secretsPage.newValue') : t('secretsPage.value')}
              placeholder={r.existing ? t('secretsPage.unchanged') : ''}
              value={r.value}
              onChange={(e) => patch(r.id, { value: e.target.value })}
            />
            <IconButton
              aria-label={t('secretsPage.removeKey', { key: r.key })}
              onClick={() => patch(r.id, { removed: true })}
            >
              <Delete />
            </IconButton>
          </Stack>
        ),
      )}
      {form.errors.values ? (
        <Typography color="error" variant="body2" role="alert">
          {form.errors.values}
        </Typography>
      ) : null}
      <div>
        <Button
          size="small"
          startIcon={<Add />}
          onClick={() =>
            form.setValue('values', [
              ...rows,
              { id: Date.now(), key: '', value: '', existing: false, removed: false },
            ])
          }
        >
          {t('secretsPage.addKey')}
        </Button>
      </div>
    </FormDialog>
  );
}
