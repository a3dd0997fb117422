import Delete from '@mui/icons-material/Delete';
import FileDownload from '@mui/icons-material/FileDownload';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { PipelineDetail } from '@slipway/contracts';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { BackLink } from '../../ui/BackLink';
import { QueryPending } from '../../ui/QueryPending';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { downloadApiFile } from '../../app/download-file';
import { useDeletePipelineMutation, usePipelineQuery, useUpdatePipelineMutation } from './api';
import { ExternalSourcePanel } from './ExternalSourcePanel';
import { PipelineForm } from './PipelineForm';
import { PipelineVersions } from './PipelineVersions';
import { PipelineRunLimitField } from '../run-limits/PipelineRunLimitField';
import { RollbackPipelineField } from './RollbackPipelineField';
import { RunDialog } from './RunDialog';
import { RunList } from './RunList';
import { OpenInStudio } from '../studio/OpenInStudio';

/** One pipeline: its definition to edit (a changed definition is a new version), export, run. */
export default function PipelineDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const auth = useAppSelector((s) => s.auth);
  const query = usePipelineQuery(id);
  const { data } = query;
  const [update] = useUpdatePipelineMutation();
  const [notice, setNotice] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  // a restored version remounts the editor, which shows the definition it starts with
  const [restores, setRestores] = useState(0);
  const [exportError, setExportError] = useState<string | null>(null);
  useDocumentTitle(data?.name ?? t('nav.pipelines'));
  const navigate = useNavigate();
  const deletion = useConfirmDelete(
    useDeletePipelineMutation(),
    (p: PipelineDetail) => ({
      title: t('pipelines.editor.deleteTitle', { name: p.name }),
      body: t('pipelines.editor.deleteBody'),
    }),
    () => void navigate('/pipelines'),
  );

  let body;
  if (!data) body = <QueryPending query={query} what={t('pipelines.editor.loadError')} lines={10} />;
  else
    body = (
      <>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
          <Typography variant="h4" component="h1">
            {data.name}
          </Typography>
          <Chip
            size="small"
            data-testid="pipeline-versions"
            label={t('pipelines.editor.versions', { count: data.versions.length, version: data.version })}
          />
          <OpenInStudio pipeline={id} />
          <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
            <Button
              variant="outlined"
              startIcon={<FileDownload />}
              onClick={() => {
                setExportError(null);
                downloadApiFile(`pipelines/${id}/export`, auth, `${data.name}.${data.format}`)
                  .then((status) =>
                    setExportError(status === null ? null : t('pipelines.editor.exportError')),
                  )
                  .catch(() => setExportError(t('pipelines.editor.exportError')));
              }}
            >
              {t('pipelines.editor.export')}
            </Button>
            <PermissionButton
              permission="pipelines:delete"
              variant="outlined"
              color="error"
              startIcon={<Delete />}
              data-testid="delete-pipeline"
              onClick={() => deletion.ask(data)}
            >
              {t('common.delete')}
            </PermissionButton>
            <PermissionButton
              permission="pipelines:execute"
              variant="contained"
              startIcon={<PlayArrow />}
              data-testid="run-this-pipeline"
              data-tour="pipeline-run-initiate"
              onClick={() => setRunning(true)}
            >
              {t('pipelines.editor.run')}
            </PermissionButton>
          </Stack>
        </Box>
        <FormAlert message={exportError} />
        {data.source ? <ExternalSourcePanel pipelineId={id} source={data.source} /> : null}
        <RollbackPipelineField pipeline={data} />
        <PipelineRunLimitField pipelineId={data.id} />
        <PipelineForm
          key={data.source ? `${data.id}@${data.version}` : `${data.id}#${restores}`}
          readOnly={Boolean(data.source)}
          initialName={data.name}
          initialDefinition={data.definition}
          permission="pipelines:edit"
          submitLabel={t('pipelines.editor.save')}
          notice={notice}
          onSubmit={(value) => {
            setNotice(null);
            const body = {
              ...(value.name !== data.name ? { name: value.name } : {}),
              ...(value.definition !== data.definition ? { definition: value.definition } : {}),
            };
            return update({ id, body });
          }}
          onSaved={(saved) => setNotice(t('pipelines.editor.saved', { version: saved.version }))}
        />
        <Box sx={{ mt: 4 }}>
          <PipelineVersions
            pipeline={data}
            onRestored={() => {
              setNotice(null);
              setRestores((n) => n + 1);
            }}
          />
        </Box>
        <Box sx={{ mt: 4 }}>
          <RunList pipelineId={id} />
        </Box>
        {running ? <RunDialog pipelineId={id} onClose={() => setRunning(false)} /> : null}
        {deletion.dialog}
      </>
    );
  return (
    <Box sx={{ maxWidth: 1200 }} data-testid="pipeline-detail-page">
      <BackLink to="/pipelines">{t('pipelines.editor.back')}</BackLink>
      {body}
    </Box>
  );
}
