import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readParams, writeParams } from './definition-params';
import { ParamsForm } from './ParamsForm';
import type { DefinitionDiagnostic } from '../../ui/yaml-diagnostics';
import { YamlEditor } from '../../ui/YamlEditor';

/**
 * The definition editor (a chunk of its own, with CodeMirror): the YAML with inline validation
 * issues, and a form view of the params; both edit the same text, so they never disagree.
 */
export default function DefinitionEditor({
  value,
  onChange,
  diagnostics,
  readOnly = false,
}: {
  value: string;
  onChange: (value: string) => void;
  diagnostics: DefinitionDiagnostic[];
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<'yaml' | 'params'>('yaml');
  const params = useMemo(() => readParams(value), [value]);
  // a Pipeline whose spec is in flow style cannot take edits from the form
  const writable = useMemo(() => params !== null && writeParams(value, params) !== null, [value, params]);
  return (
    <div>
      <Tabs value={view} onChange={(_e, v: typeof view) => setView(v)} sx={{ mb: 1 }}>
        <Tab value="yaml" label={t('studio.editor.yaml')} />
        <Tab value="params" label={t('studio.editor.params')} />
      </Tabs>
      {view === 'yaml' ? (
        <YamlEditor
          value={value}
          onChange={onChange}
          diagnostics={diagnostics}
          readOnly={readOnly}
          label={t('pipelines.editor.definition')}
          testId="pipeline-definition-editor"
        />
      ) : params === null || !writable ? (
        <Typography color="text.secondary" data-testid="params-unreadable">
          {t('studio.editor.paramsUnreadable')}
        </Typography>
      ) : (
        <ParamsForm
          params={params}
          disabled={readOnly}
          onChange={(next) => {
            const text = writeParams(value, next);
            if (text !== null) onChange(text);
          }}
        />
      )}
      {diagnostics.length && view === 'params' ? (
        <Typography color="error" variant="body2" sx={{ mt: 1 }}>
          {t('studio.editor.issues', { count: diagnostics.length })}
        </Typography>
      ) : null}
    </div>
  );
}
