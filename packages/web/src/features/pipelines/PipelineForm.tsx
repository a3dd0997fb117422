import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permission } from '@slipway/contracts';
import { errorMessage, fieldErrors, type ApiError } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { Skeleton } from '../../ui/Skeleton';
import { PermissionButton } from '../access/Can';
import { definitionDiagnostics } from './validation-diagnostics';

/** CodeMirror and the YAML grammar load only with the editor */
const DefinitionEditor = lazy(() => import('./DefinitionEditor'));
/**
 * A pipeline's name and definition (YAML or JSON) in the studio's editor. The server validates
 * the definition; its message is shown above the form and each issue inline at its line.
 */
export function PipelineForm({
  initialName,
  initialDefinition,
  submitLabel,
  permission,
  saving,
  error,
  notice,
  readOnly = false,
  onSubmit,
}: {
  initialName: string;
  initialDefinition: string;
  submitLabel: string;
  /** what saving needs: pipelines:create for a new one, pipelines:edit otherwise */
  permission: Permission;
  saving: boolean;
  error: ApiError;
  notice?: string | null;
  /** shown, not edited, and nothing to save (an external pipeline's definition lives in git) */
  readOnly?: boolean;
  onSubmit: (value: { name: string; definition: string }) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [definition, setDefinition] = useState(initialDefinition);
  const fields = error ? fieldErrors(error) : {};
  const diagnostics = useMemo(() => definitionDiagnostics(error), [error]);

  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit({ name: name.trim(), definition });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('pipelines.editor.formLabel')}>
      <FormAlert message={error ? errorMessage(error) : null} testId="pipeline-error" />
      <FormAlert message={notice} severity="success" />
      <Stack spacing={2}>
        <TextField
          label={t('pipelines.editor.name')}
          value={name}
          required
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { readOnly } }}
          error={Boolean(fields.name)}
          helperText={fields.name ?? ' '}
          sx={{ maxWidth: 480 }}
        />
        <Typography variant="subtitle2" component="h2">
          {t('pipelines.editor.definition')}
        </Typography>
        <Suspense fallback={<Skeleton lines={12} />}>
          <DefinitionEditor
            value={definition}
            onChange={setDefinition}
            diagnostics={diagnostics}
            readOnly={readOnly}
          />
        </Suspense>
        <Typography variant="caption" color="text.secondary">
          {t('pipelines.editor.definitionHelp')}
        </Typography>
        {readOnly ? null : (
          <div>
            <PermissionButton
              permission={permission}
              type="submit"
              variant="contained"
              loading={saving}
              disabled={!name.trim() || !definition.trim()}
            >
              {submitLabel}
            </PermissionButton>
          </div>
        )}
      </Stack>
    </form>
  );
}
