import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SECRET_TYPES, secretNameSchema, type Secret, type SecretType } from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useCreateSecretMutation, useUpdateSecretMutation } from './api';

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
  const [name, setName] = useState(secret?.name ?? '');
  const [description, setDescription] = useState(secret?.description ?? '');
  const [type, setType] = useState<SecretType>(secret?.type ?? 'generic');
  const [global, setGlobal] = useState(secret?.global ?? false);
  const [rows, setRows] = useState<KeyRow[]>(
    secret
      ? secret.keys.map((key, i) => ({ id: i, key, value: '', existing: true, removed: false }))
      : [{ id: 0, key: 'value', value: '', existing: false, removed: false }],
  );
  const [tried, setTried] = useState(false);
  const [create, created] = useCreateSecretMutation();
  const [update, updated] = useUpdateSecretMutation();
  const error = secret ? updated.error : created.error;
  const saving = created.isLoading || updated.isLoading;
  const { fields, message } = formErrors(error);

  const nameCheck = secretNameSchema.safeParse(name);
  const nameError = tried && !nameCheck.success ? nameCheck.error.issues[0]!.message : (fields.name ?? '');
  const live = rows.filter((r) => !r.removed);
  const noValue = !secret && !live.some((r) => r.key.trim() && r.value !== '');
  const valuesError = tried && noValue ? t('secretsPage.needsValue') : (fields.values ?? fields.value ?? '');

  function patch(rowId: number, change: Partial<KeyRow>) {
    setRows((rs) => rs.map((r) => (r.id === rowId ? { ...r, ...change } : r)));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!nameCheck.success || noValue) return;
    if (secret) {
      const values: Record<string, string | null> = {};
      for (const r of rows) {
        if (r.removed && r.existing) values[r.key] = null;
        else if (!r.removed && r.key.trim() && r.value !== '') values[r.key.trim()] = r.value;
      }
      update({
        id: secret.id,
        body: {
          ...(name.trim() !== secret.name ? { name: name.trim() } : {}),
          description,
          type,
          global,
          ...(Object.keys(values).length ? { values } : {}),
        },
      })
        .unwrap()
        .then(onClose)
        .catch(() => undefined);
    } else {
      const values = Object.fromEntries(live.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
      create({ name: name.trim(), description, type, global, values })
        .unwrap()
        .then(onClose)
        .catch(() => undefined);
    }
  }

  return (
    <FormDialog
      id={id}
      title={secret ? t('secretsPage.editTitle', { name: secret.name }) : t('secretsPage.newSecret')}
      lead={<FormAlert message={error ? message : null} testId="secret-error" />}
      submitLabel={secret ? t('secretsPage.save') : t('secretsPage.create')}
      busy={saving}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={t('secretsPage.name')}
        value={name}
        required
        onChange={(e) => setName(e.target.value)}
        error={Boolean(nameError)}
        helperText={nameError || ' '}
      />
      <TextField
        label={t('secretsPage.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        helperText={fields.description ?? ' '}
        error={Boolean(fields.description)}
      />
      <TextField
        select
        label={t('secretsPage.type')}
        value={type}
        onChange={(e) => setType(e.target.value as SecretType)}
      >
        {SECRET_TYPES.map((ty) => (
          <MenuItem key={ty} value={ty}>
            {t(`secretsPage.types.${ty}`)}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={<Checkbox checked={global} onChange={(e) => setGlobal(e.target.checked)} />}
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
      {valuesError ? (
        <Typography color="error" variant="body2" role="alert">
          {valuesError}
        </Typography>
      ) : null}
      <div>
        <Button
          size="small"
          startIcon={<Add />}
          onClick={() =>
            setRows((rs) => [...rs, { id: Date.now(), key: '', value: '', existing: false, removed: false }])
          }
        >
          {t('secretsPage.addKey')}
        </Button>
      </div>
    </FormDialog>
  );
}
