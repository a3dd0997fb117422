import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BackLink } from '../../ui/BackLink';
import { FormAlert } from '../../ui/FormAlert';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useFormFields } from '../../ui/useFormFields';
import { definitionDiagnostics } from '../../ui/yaml-diagnostics';
import { PermissionButton } from '../access/Can';
import { useStartRunFromDocumentMutation } from './api';

/** CodeMirror and the YAML grammar load only with the editor */
const YamlEditor = lazy(() => import('../../ui/YamlEditor').then((m) => ({ default: m.YamlEditor })));

/** What the editor starts with: a TaskRun of Tekton's own example shape, ready to run. */
export const SAMPLE_RUN_DOCUMENT = `apiVersion: tekton.dev/v1
kind: TaskRun
metadata:
  generateName: hello-
spec:
  params:
    - name: who
      value: world
  taskSpec:
    params:
      - name: who
    steps:
      - name: greet
        image: alpine
        script: |
          echo "hello $(params.who)"
`;

/**
 * Run from YAML: a pasted Tekton PipelineRun or TaskRun (YAML or JSON) is created as `kubectl
 * create -f` would; the server's issues show above the editor and at their line, and a created
 * run opens its page.
 */
export default function RunFromYamlPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pipelines.fromYaml.title'));
  const navigate = useNavigate();
  const [start] = useStartRunFromDocumentMutation();
  const form = useFormFields({ text: SAMPLE_RUN_DOCUMENT });
  const diagnostics = useMemo(() => definitionDiagnostics(form.apiError), [form.apiError]);
  const submit = form.handleSubmit({
    input: { text: form.values.text },
    mutate: (body: { text: string }) => start(body),
    onSuccess: (run) => void navigate(`/pipelines/runs/${run.id}`),
  });
  return (
    <Box sx={{ maxWidth: 960, minWidth: 0 }} data-testid="run-from-yaml-page">
      <BackLink to="/pipelines">{t('pipelines.editor.back')}</BackLink>
      <Typography variant="h4" component="h1" sx={{ mb: 1 }}>
        {t('pipelines.fromYaml.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('pipelines.fromYaml.lead')}
      </Typography>
      <form ref={form.formRef} onSubmit={submit} noValidate aria-label={t('pipelines.fromYaml.formLabel')}>
        <FormAlert message={form.formError} testId="run-from-yaml-error" />
        <Stack spacing={2}>
          <Suspense fallback={<Skeleton lines={12} />}>
            <YamlEditor
              value={form.values.text}
              onChange={(next) => form.setValue('text', next)}
              diagnostics={diagnostics}
              label={t('pipelines.fromYaml.document')}
              testId="run-document-editor"
            />
          </Suspense>
          <Typography variant="caption" color="text.secondary">
            {t('pipelines.fromYaml.help')}
          </Typography>
          <div>
            <PermissionButton
              permission="pipelines:execute"
              type="submit"
              variant="contained"
              loading={form.submitting}
              disabled={!form.values.text.trim()}
              data-testid="run-from-yaml-submit"
            >
              {t('pipelines.fromYaml.submit')}
            </PermissionButton>
          </div>
        </Stack>
      </form>
    </Box>
  );
}
