import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permission } from '@slipway/contracts';
import { errorMessage, fieldErrors, type ApiError } from '../../app/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { PermissionButton } from '../access/Can';

/**
 * A pipeline's name and definition (YAML or JSON). The server validates the definition; its
 * message names the path and line, and is shown above the form.
 */
export function PipelineForm({
  initialName,
  initialDefinition,
  submitLabel,
  permission,
  saving,
  error,
  notice,
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
  onSubmit: (value: { name: string; definition: string }) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [definition, setDefinition] = useState(initialDefinition);
  const fields = error ? fieldErrors(error) : {};

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
          error={Boolean(fields.name)}
          helperText={fields.name ?? ' '}
          sx={{ maxWidth: 480 }}
        />
        <TextField
          label={t('pipelines.editor.definition')}
          value={definition}
          required
          multiline
          rows={20}
          onChange={(e) => setDefinition(e.target.value)}
          error={Boolean(fields.definition)}
          helperText={fields.definition ?? t('pipelines.editor.definitionHelp')}
          slotProps={{
            htmlInput: { spellCheck: false, 'data-testid': 'pipeline-definition' },
            input: { sx: { fontFamily: 'monospace', fontSize: 13 } },
          }}
        />
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
      </Stack>
    </form>
  );
}
