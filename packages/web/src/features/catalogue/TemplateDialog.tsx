import TextField from '@mui/material/TextField';
import { lazy, Suspense, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../ui/FormAlert';
import { FormDialog } from '../../ui/FormDialog';
import { Skeleton } from '../../ui/Skeleton';
import { useFormFields, type SubmitAnswer } from '../../ui/useFormFields';
import { definitionDiagnostics } from '../../ui/yaml-diagnostics';

/** CodeMirror loads with the dialog, never with the list */
const YamlEditor = lazy(() => import('../../ui/YamlEditor').then((m) => ({ default: m.YamlEditor })));

export interface TemplateValue {
  name: string;
  description: string;
  definition: string;
}

/** What the dialog starts from: a new template's `sample` definition, or an existing one's values. */
export function templateValue(template: TemplateValue | 'new', sample: string): TemplateValue {
  if (template === 'new') return { name: '', description: '', definition: sample };
  return { name: template.name, description: template.description, definition: template.definition };
}

/**
 * A template's name, description and Tekton definition in the YAML editor, the server's
 * validation issues inline. Read-only for built-ins (view only, nothing to save).
 */
export function TemplateDialog({
  title,
  initial,
  readOnly = false,
  onSave,
  onClose,
}: {
  title: string;
  initial: TemplateValue;
  readOnly?: boolean;
  /** Saves (the page's create or update mutation); the dialog closes once it succeeds. */
  onSave: (value: TemplateValue) => PromiseLike<SubmitAnswer<unknown>>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const form = useFormFields(initial);
  const value = form.values;
  const diagnostics = useMemo(() => definitionDiagnostics(form.apiError), [form.apiError]);
  const submit = form.handleSubmit({
    input: { ...value, name: value.name.trim() },
    check: () => ({
      name: value.name.trim() ? undefined : t('catalogue.nameRequired'),
      definition: value.definition.trim() ? undefined : '',
    }),
    mutate: onSave,
    onSuccess: () => onClose(),
  });
  const withLine = (props: { helperText?: string }) => ({ ...props, helperText: props.helperText ?? ' ' });

  return (
    <FormDialog
      id={id}
      title={title}
      lead={<FormAlert message={form.formError} testId="template-error" />}
      submitLabel={t('catalogue.save')}
      busy={form.submitting}
      readOnly={readOnly}
      cancelLabel={readOnly ? t('catalogue.close') : undefined}
      onSubmit={submit}
      onClose={onClose}
      formRef={form.formRef}
      maxWidth="md"
    >
      <TextField {...withLine(form.field('name'))} label={t('catalogue.name')} required disabled={readOnly} />
      <TextField
        {...withLine(form.field('description'))}
        label={t('catalogue.description')}
        disabled={readOnly}
      />
      <Suspense fallback={<Skeleton lines={10} />}>
        <YamlEditor
          value={value.definition}
          onChange={(definition) => form.setValue('definition', definition)}
          diagnostics={diagnostics}
          readOnly={readOnly}
          label={t('catalogue.definition')}
          testId="template-definition-editor"
        />
      </Suspense>
    </FormDialog>
  );
}
