import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { lazy, Suspense, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrors, type ApiError } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { Skeleton } from '../../ui/Skeleton';
import { definitionDiagnostics } from '../pipelines/validation-diagnostics';

/** CodeMirror loads with the dialog, never with the list */
const YamlEditor = lazy(() => import('../pipelines/YamlEditor').then((m) => ({ default: m.YamlEditor })));

export interface TemplateValue {
  name: string;
  description: string;
  definition: string;
}

/**
 * A template's name, description and Tekton definition in the YAML editor, the server's
 * validation issues inline. Read-only for built-ins (view only, nothing to save).
 */
export function TemplateDialog({
  title,
  initial,
  readOnly = false,
  saving,
  error,
  onSave,
  onClose,
}: {
  title: string;
  initial: TemplateValue;
  readOnly?: boolean;
  saving: boolean;
  error: ApiError;
  onSave: (value: TemplateValue) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(initial);
  const [tried, setTried] = useState(false);
  const { fields, message } = formErrors(error);
  const diagnostics = useMemo(() => definitionDiagnostics(error), [error]);
  const nameMissing = tried && !value.name.trim();

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!value.name.trim() || !value.definition.trim()) return;
    onSave({ ...value, name: value.name.trim() });
  }

  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="md"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          <FormAlert message={error ? message : null} testId="template-error" />
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('catalogue.name')}
              value={value.name}
              required
              disabled={readOnly}
              onChange={(e) => setValue({ ...value, name: e.target.value })}
              error={nameMissing || Boolean(fields.name)}
              helperText={nameMissing ? t('catalogue.nameRequired') : (fields.name ?? ' ')}
            />
            <TextField
              label={t('catalogue.description')}
              value={value.description}
              disabled={readOnly}
              onChange={(e) => setValue({ ...value, description: e.target.value })}
              error={Boolean(fields.description)}
              helperText={fields.description ?? ' '}
            />
            <Suspense fallback={<Skeleton lines={10} />}>
              <YamlEditor
                value={value.definition}
                onChange={(definition) => setValue((v) => ({ ...v, definition }))}
                diagnostics={diagnostics}
                readOnly={readOnly}
                label={t('catalogue.definition')}
                testId="template-definition-editor"
              />
            </Suspense>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            {readOnly ? t('catalogue.close') : t('common.cancel')}
          </Button>
          {readOnly ? null : (
            <Button type="submit" variant="contained" loading={saving}>
              {t('catalogue.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
