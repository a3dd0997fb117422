import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { PARAM_TYPES, type ParamDefault, type ParamSpec, type ParamType } from './definition-params';

/** A default as the form shows it: text; one item per line; one `key=value` per line. */
export function defaultText(d: ParamDefault | undefined): string {
  if (d === undefined) return '';
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.join('\n');
  return Object.entries(d)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** The form's default text read back for a type; empty means no default. */
export function parseDefault(text: string, type: ParamType): ParamDefault | undefined {
  if (text === '') return undefined;
  if (type === 'string') return text;
  const lines = text.split('\n');
  if (type === 'array') return lines;
  return Object.fromEntries(
    lines
      .filter((l) => l.trim())
      .map((l) => {
        const i = l.indexOf('=');
        return i === -1 ? [l.trim(), ''] : [l.slice(0, i).trim(), l.slice(i + 1)];
      }),
  );
}

/** The params of a pipeline as a form: name, type, default and description per param. */
export function ParamsForm({
  params,
  onChange,
  disabled = false,
}: {
  params: ParamSpec[];
  onChange: (params: ParamSpec[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const names = params.map((p) => p.name);
  const update = (i: number, patch: Partial<ParamSpec>) =>
    onChange(params.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <Box data-testid="params-form">
      {params.length === 0 ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('studio.params.none')}
        </Typography>
      ) : null}
      <Stack spacing={2}>
        {params.map((p, i) => {
          let nameError = '';
          if (!p.name.trim()) nameError = t('studio.params.nameRequired');
          else if (names.indexOf(p.name) !== i) nameError = t('studio.params.duplicate');
          return (
            <Stack key={i} direction="row" spacing={1} alignItems="flex-start" data-testid="param-row">
              <TextField
                size="small"
                label={t('studio.params.name')}
                value={p.name}
                disabled={disabled}
                error={Boolean(nameError)}
                helperText={nameError || ' '}
                onChange={(e) => update(i, { name: e.target.value })}
                sx={{ width: 180 }}
              />
              <TextField
                select
                size="small"
                label={t('studio.params.type')}
                value={p.type}
                disabled={disabled}
                onChange={(e) => {
                  const type = e.target.value as ParamType;
                  update(i, { type, default: parseDefault(defaultText(p.default), type) });
                }}
                sx={{ width: 120 }}
              >
                {PARAM_TYPES.map((ty) => (
                  <MenuItem key={ty} value={ty}>
                    {ty}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                label={t('studio.params.default')}
                value={defaultText(p.default)}
                disabled={disabled}
                multiline={p.type !== 'string'}
                helperText={t(`studio.params.defaultHelp.${p.type}`)}
                onChange={(e) => update(i, { default: parseDefault(e.target.value, p.type) })}
                sx={{ flex: 1 }}
              />
              <TextField
                size="small"
                label={t('studio.params.description')}
                value={p.description}
                disabled={disabled}
                helperText=" "
                onChange={(e) => update(i, { description: e.target.value })}
                sx={{ flex: 1 }}
              />
              <IconButton
                aria-label={t('studio.params.remove', { name: p.name })}
                disabled={disabled}
                onClick={() => onChange(params.filter((_, j) => j !== i))}
              >
                <Delete />
              </IconButton>
            </Stack>
          );
        })}
      </Stack>
      <Button
        size="small"
        startIcon={<Add />}
        disabled={disabled}
        sx={{ mt: 1 }}
        onClick={() =>
          onChange([...params, { name: `param${params.length + 1}`, type: 'string', description: '' }])
        }
      >
        {t('studio.params.add')}
      </Button>
    </Box>
  );
}
