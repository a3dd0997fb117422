import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONFIG_MAP_MAX_BYTES,
  CONFIG_MAP_SIZE_MESSAGE,
  configMapBytes,
  configMapKeyProblem,
  configMapNameSchema,
  type ConfigMap,
} from '@slipway/contracts';
import { formErrors } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useCreateConfigMapMutation, useUpdateConfigMapMutation } from './api';

interface Row {
  id: number;
  key: string;
  value: string;
}

/** Rows with neither a key nor a value are left out; the rest become the config map's data. */
const filled = (rows: Row[]) => rows.filter((r) => r.key.trim() !== '' || r.value !== '');

/**
 * Creates or changes a config map: a name, a description and key → value rows (values may span
 * lines). Values are plain, so an existing config map shows them; saving sends every row.
 */
export function ConfigMapDialog({
  configMap,
  onClose,
}: {
  configMap: ConfigMap | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const nextRow = useRef(0);
  const row = (key = '', value = ''): Row => ({ id: nextRow.current++, key, value });
  const [name, setName] = useState(configMap?.name ?? '');
  const [description, setDescription] = useState(configMap?.description ?? '');
  const [rows, setRows] = useState<Row[]>(() =>
    configMap && Object.keys(configMap.data).length > 0
      ? Object.entries(configMap.data)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([key, value]) => row(key, value))
      : [row()],
  );
  const [tried, setTried] = useState(false);
  const [create, created] = useCreateConfigMapMutation();
  const [update, updated] = useUpdateConfigMapMutation();
  const error = configMap ? updated.error : created.error;
  const saving = created.isLoading || updated.isLoading;
  const { fields, message } = formErrors(error);

  const nameCheck = configMapNameSchema.safeParse(name);
  const nameError = tried && !nameCheck.success ? nameCheck.error.issues[0]!.message : (fields.name ?? '');
  const used = filled(rows);
  const keyErrors = new Map<number, string>();
  const seen = new Set<string>();
  for (const r of used) {
    const key = r.key.trim();
    const problem = configMapKeyProblem(key) ?? (seen.has(key) ? t('configMapsPage.duplicateKey') : null);
    if (problem) keyErrors.set(r.id, problem);
    seen.add(key);
  }
  const data = Object.fromEntries(used.map((r) => [r.key.trim(), r.value]));
  const tooBig = configMapBytes(data) > CONFIG_MAP_MAX_BYTES;
  const dataError = tried && tooBig ? CONFIG_MAP_SIZE_MESSAGE : (fields.data ?? '');

  function patch(rowId: number, change: Partial<Row>) {
    setRows((rs) => rs.map((r) => (r.id === rowId ? { ...r, ...change } : r)));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!nameCheck.success || keyErrors.size > 0 || tooBig) return;
    const saved = configMap
      ? update({
          id: configMap.id,
          body: { ...(name.trim() !== configMap.name ? { name: name.trim() } : {}), description, data },
        })
      : create({ name: name.trim(), description, data });
    saved
      .unwrap()
      .then(onClose)
      .catch(() => undefined);
  }

  return (
    <FormDialog
      id={id}
      maxWidth="md"
      title={
        configMap ? t('configMapsPage.editTitle', { name: configMap.name }) : t('configMapsPage.newConfigMap')
      }
      lead={<FormAlert message={error ? message : null} testId="config-map-error" />}
      submitLabel={configMap ? t('configMapsPage.save') : t('configMapsPage.create')}
      busy={saving}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={t('configMapsPage.name')}
        value={name}
        required
        onChange={(e) => setName(e.target.value)}
        error={Boolean(nameError)}
        helperText={nameError || ' '}
      />
      <TextField
        label={t('configMapsPage.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        helperText={fields.description ?? ' '}
        error={Boolean(fields.description)}
      />
      <Typography variant="subtitle2" component="h3">
        {t('configMapsPage.data')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('configMapsPage.dataHelp')}
      </Typography>
      {rows.map((r) => {
        const keyError = tried ? keyErrors.get(r.id) : undefined;
        return (
          <Stack
            key={r.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            alignItems={{ xs: 'stretch', sm: 'flex-start' }}
            data-testid="config-map-key-row"
          >
            <TextField
              size="small"
              label={t('configMapsPage.key')}
              value={r.key}
              onChange={(e) => patch(r.id, { key: e.target.value })}
              error={Boolean(keyError)}
              helperText={keyError}
              sx={{ minWidth: { sm: 220 } }}
              slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
            />
            <TextField
              size="small"
              fullWidth
              multiline
              minRows={1}
              maxRows={10}
              label={t('configMapsPage.value')}
              value={r.value}
              onChange={(e) => patch(r.id, { value: e.target.value })}
              slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false, style: { fontFamily: 'monospace' } } }}
            />
            <IconButton
              aria-label={t('configMapsPage.removeKey', { key: r.key || t('configMapsPage.emptyKey') })}
              onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}
              sx={{ alignSelf: { xs: 'flex-end', sm: 'flex-start' } }}
            >
              <Delete />
            </IconButton>
          </Stack>
        );
      })}
      {dataError ? (
        <Typography color="error" variant="body2" role="alert">
          {dataError}
        </Typography>
      ) : null}
      <div>
        <Button size="small" startIcon={<Add />} onClick={() => setRows((rs) => [...rs, row()])}>
          {t('configMapsPage.addKey')}
        </Button>
      </div>
    </FormDialog>
  );
}
