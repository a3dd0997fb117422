import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@slipway/contracts';
import type { ParamSpec } from './definition-params';
import { defaultText, parseDefault } from './ParamsForm';

/** The form's text for each declared param, defaults filled in. */
export function initialParamValues(params: ParamSpec[]): Record<string, string> {
  return Object.fromEntries(params.map((p) => [p.name, defaultText(p.default)]));
}

/** The names of required params (no default) left empty. */
export function missingParams(params: ParamSpec[], values: Record<string, string>): string[] {
  return params.filter((p) => p.default === undefined && !(values[p.name] ?? '').trim()).map((p) => p.name);
}

/** The values to send: each param in its declared type (string, array of lines, object of key=value lines). */
export function paramValuesToSend(
  params: ParamSpec[],
  values: Record<string, string>,
): Record<string, string | string[] | Record<string, string>> {
  const out: Record<string, string | string[] | Record<string, string>> = {};
  for (const p of params) {
    const text = values[p.name] ?? '';
    if (text === '' && p.default === undefined) continue;
    const v = parseDefault(text, p.type);
    out[p.name] = v ?? (p.type === 'string' ? '' : p.type === 'array' ? [] : {});
  }
  return out;
}

/** One field per declared param, as its type needs; required ones say so when left empty. */
export function RunParamsFields({
  params,
  values,
  onChange,
  showErrors,
}: {
  params: ParamSpec[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const missing = new Set(missingParams(params, values));
  if (params.length === 0)
    return <Typography color="text.secondary">{t('studio.runPanel.noDeclaredParams')}</Typography>;
  return (
    <Stack spacing={1.5} data-testid="run-params-form">
      {params.map((p) => {
        const bad = showErrors && missing.has(p.name);
        const help =
          p.type === 'string'
            ? p.description
            : `${t(`studio.params.defaultHelp.${p.type}`)}${p.description ? ` · ${p.description}` : ''}`;
        return (
          <TextField
            key={p.name}
            size="small"
            label={`${p.name} (${p.type})`}
            required={p.default === undefined}
            multiline={p.type !== 'string'}
            minRows={p.type === 'string' ? undefined : 2}
            value={values[p.name] ?? ''}
            onChange={(e) => onChange({ ...values, [p.name]: e.target.value })}
            error={bad}
            helperText={bad ? MESSAGES.parametersRequired : help || ' '}
          />
        );
      })}
    </Stack>
  );
}
