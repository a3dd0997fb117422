import OpenInNew from '@mui/icons-material/OpenInNew';
import Save from '@mui/icons-material/Save';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { PipelineDetail } from '@slipway/contracts';
import { errorMessage, type ApiError } from '../../ui/api-error';
import { BackLink } from '../../ui/BackLink';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { QueryPending } from '../../ui/QueryPending';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useUnsavedChanges } from '../../ui/useUnsavedChanges';
import { definitionDiagnostics } from '../../ui/yaml-diagnostics';
import { PermissionButton } from '../access/Can';
import { usePermission } from '../access/usePermission';
import { usePipelineQuery, useUpdatePipelineMutation } from '../pipelines/api';
import { PipelineWorkspace } from './PipelineWorkspace';
import { useStudioText } from './useStudioText';

/** `/studio/pipelines/:id`: a pipeline opened in the studio, to edit visually and save. */
export default function StudioPipelinePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = usePipelineQuery(id);
  const { data } = query;
  useDocumentTitle(data ? t('studioPage.pipelineTitle', { name: data.name }) : t('nav.studio'));
  return (
    <Box sx={{ maxWidth: 1600, minWidth: 0 }} data-testid="studio-pipeline-page">
      <BackLink to="/studio">{t('studioPage.back')}</BackLink>
      {data ? (
        <PipelineStudio key={data.id} pipeline={data} />
      ) : (
        <QueryPending query={query} what={t('studioPage.pipelineLoadError')} lines={12} />
      )}
    </Box>
  );
}

/**
 * One pipeline in the studio: its header with Save (a new version; only with pipelines:edit),
 * and the workspace. An external pipeline's definition lives in git: shown, not edited.
 */
function PipelineStudio({ pipeline }: { pipeline: PipelineDetail }) {
  const { t } = useTranslation();
  const doc = useStudioText(pipeline.definition);
  const permission = usePermission('pipelines:edit');
  const external = Boolean(pipeline.source);
  const editable = !external && permission.allowed;
  const [update, saving] = useUpdatePipelineMutation();
  const [saved, setSaved] = useState(pipeline.definition);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiError>(undefined);
  const diagnostics = useMemo(() => definitionDiagnostics(failure), [failure]);
  const dirty = doc.text !== saved;
  const unsaved = useUnsavedChanges(editable && dirty);

  async function save() {
    setNotice(null);
    setFailure(undefined);
    const text = doc.text;
    const answer = await update({ id: pipeline.id, body: { definition: text } });
    if ('error' in answer) {
      setFailure(answer.error);
      return;
    }
    setSaved(text);
    setNotice(t('studioPage.saved', { version: answer.data.version }));
  }

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {pipeline.name}
        </Typography>
        <Chip size="small" label={t('studioPage.version', { version: pipeline.version })} />
        {dirty && editable ? (
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={t('studioPage.unsaved')}
            data-testid="studio-unsaved"
          />
        ) : null}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', ml: 'auto' }}>
          <Button
            variant="outlined"
            component={RouterLink}
            to={`/pipelines/${pipeline.id}`}
            startIcon={<OpenInNew />}
          >
            {t('studioPage.openPipelinePage')}
          </Button>
          {external ? null : (
            <PermissionButton
              permission="pipelines:edit"
              variant="contained"
              startIcon={<Save />}
              loading={saving.isLoading}
              disabled={!dirty}
              onClick={() => void save()}
              data-testid="studio-save"
            >
              {t('studioPage.save')}
            </PermissionButton>
          )}
        </Box>
      </Box>
      {external ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="studio-external">
          {t('studioPage.external', { url: pipeline.source?.url ?? '', path: pipeline.source?.path ?? '' })}
        </Alert>
      ) : !permission.allowed && !permission.isLoading ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="studio-read-only">
          {t('studioPage.readOnly')}
        </Alert>
      ) : null}
      <FormAlert message={failure ? errorMessage(failure) : null} testId="studio-save-error" />
      <FormAlert message={notice} severity="success" />
      <PipelineWorkspace doc={doc} editable={editable} diagnostics={diagnostics} />
      {unsaved.dialog}
    </>
  );
}
