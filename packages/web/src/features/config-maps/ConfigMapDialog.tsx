import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONFIG_MAP_MAX_BYTES,
  CONFIG_MAP_SIZE_MESSAGE,
  configMapBytes,
  configMapKeyProblem,
  configMapNameSchema,
  type ConfigMap,
} from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { useFormFields } from '../../ui/useFormFields';
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
  const form = useFormFields({
    name: configMap?.name ?? '',
    description: configMap?.description ?? '',
    data:
      configMap && Object.keys(configMap.data).length > 0
        ? Object.entries(configMap.data)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([key, value]) => row(key, value))
        : [row()],
  });
  const [create] = useCreateConfigMapMutation();
  const [update] = useUpdateConfigMapMutation();
  const { name, description, data: rows } = form.values;

  // key and size messages follow the rows as they change, once a save was tried
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
  const dataError = form.tried && tooBig ? CONFIG_MAP_SIZE_MESSAGE : form.errors.data;

  function patch(rowId: number, change: Partial<Row>) {
    form.setValue(
      'data',
      rows.map((r) => (r.id === rowId ? { ...r, ...change } : r)),
    );
  }

  const submit = form.handleSubmit({
    check: () => {
      const nameCheck = configMapNameSchema.safeParse(name);
      return {
        name: nameCheck.success ? undefined : nameCheck.error.issues[0]!.message,
        keys: keyErrors.values().next().value,
        size: tooBig ? CONFIG_MAP_SIZE_MESSAGE : undefined,
      };
    },
    mutate: () =>
      configMap
        ? update({
            id: configMap.id,
            body: { ...(name.trim() !== configMap.name ? { name: name.trim() } : {}), description, data },
          })
        : create({ name: name.trim(), description, data }),
    onSuccess: () => onClose(),
  });
  const withLine = (props: { helperText?: string }) => ({ ...props, helperText: props.helperText ?? ' ' });

  return (
    <FormDialog
      id={id}
      maxWidth="md"
      title={
        configMap ? t('configMapsPage.editTitle', { name: configMap.name }) : t('configMapsPage.newConfigMap')
      }
      lead={<FormAlert message={form.formError} testId="config-map-error" />}
      submitLabel={configMap ? t('configMapsPage.save') : t('configMapsPage.create')}
      busy={form.submitting}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
    >
      <TextField {...withLine(form.field('name'))} label={t('configMapsPage.name')} required />
      <TextField {...withLine(form.field('description'))} label={t('configMapsPage.description')} />
      <Typography variant="subtitle2" component="h3">
        {t('configMapsPage.data')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('configMapsPage.dataHelp')}
      </Typography>
      {rows.map((r) => {
        const keyError = form.tried ? keyErrors.get(r.id) : undefined;
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
              onClick={() =>
                form.setValue(
                  'data',
                  rows.filter((x) => x.id !== r.id),
                )
              }
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
        <Button size="small" startIcon={<Add />} onClick={() => form.setValue('data', [...rows, row()])}>
          {t('configMapsPage.addKey')}
        </Button>
      </div>
    </FormDialog>
  );
}
