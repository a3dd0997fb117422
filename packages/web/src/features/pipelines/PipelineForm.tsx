import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permission } from '@slipway/contracts';
import { FormAlert } from '../../ui/FormAlert';
import { Skeleton } from '../../ui/Skeleton';
import { useFormFields, type SubmitAnswer } from '../../ui/useFormFields';
import { useUnsavedChanges } from '../../ui/useUnsavedChanges';
import { PermissionButton } from '../access/Can';
import { definitionDiagnostics } from '../../ui/yaml-diagnostics';

/** CodeMirror and the YAML grammar load only with the editor */
const DefinitionEditor = lazy(() => import('./DefinitionEditor'));
/**
 * A pipeline's name and definition (YAML or JSON) in the studio's editor. The server validates
 * the definition; its message is shown above the form and each issue inline at its line.
 */
export function PipelineForm<R>({
  initialName,
  initialDefinition,
  submitLabel,
  permission,
  notice,
  readOnly = false,
  onSubmit,
  onSaved,
}: {
  initialName: string;
  initialDefinition: string;
  submitLabel: string;
  /** what saving needs: pipelines:create for a new one, pipelines:edit otherwise */
  permission: Permission;
  notice?: string | null;
  /** shown, not edited, and nothing to save (an external pipeline's definition lives in git) */
  readOnly?: boolean;
  /** Saves (the page's create or update mutation). */
  onSubmit: (value: { name: string; definition: string }) => PromiseLike<SubmitAnswer<R>>;
  onSaved?: (saved: R) => void;
}) {
  const { t } = useTranslation();
  const form = useFormFields({ name: initialName, definition: initialDefinition });
  const { name, definition } = form.values;
  const diagnostics = useMemo(() => definitionDiagnostics(form.apiError), [form.apiError]);
  // what is saved: the form differs from it while there are unsaved edits
  const [saved, setSaved] = useState({ name: initialName, definition: initialDefinition });
  const unsaved = useUnsavedChanges(!readOnly && (name !== saved.name || definition !== saved.definition));
  const submit = form.handleSubmit({
    input: { name: name.trim(), definition },
    mutate: onSubmit,
    onSuccess: (answer) => {
      unsaved.release();
      setSaved({ name, definition });
      onSaved?.(answer);
    },
  });
  const nameField = form.field('name');

  return (
    <form ref={form.formRef} onSubmit={submit} noValidate aria-label={t('pipelines.editor.formLabel')}>
      <FormAlert message={form.formError} testId="pipeline-error" />
      <FormAlert message={notice} severity="success" />
      <Stack spacing={2}>
        <TextField
          {...nameField}
          label={t('pipelines.editor.name')}
          required
          slotProps={{ htmlInput: { readOnly } }}
          helperText={nameField.helperText ?? ' '}
          sx={{ maxWidth: 480 }}
        />
        <Typography variant="subtitle2" component="h2">
          {t('pipelines.editor.definition')}
        </Typography>
        <Suspense fallback={<Skeleton lines={12} />}>
          <DefinitionEditor
            value={definition}
            onChange={(next) => form.setValue('definition', next)}
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
              loading={form.submitting}
              disabled={!name.trim() || !definition.trim()}
            >
              {submitLabel}
            </PermissionButton>
          </div>
        )}
      </Stack>
      {unsaved.dialog}
    </form>
  );
}
