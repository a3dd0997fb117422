import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useCreatePipelineMutation } from './api';
import { SAMPLE_PIPELINE } from '../../app/samples';
import { PipelineForm } from './PipelineForm';

/** A new pipeline from a pasted Tekton Pipeline; a sample to start from. */
export default function NewPipelinePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('pipelines.editor.newTitle'));
  const navigate = useNavigate();
  const [create] = useCreatePipelineMutation();
  return (
    <Box sx={{ maxWidth: 960 }} data-testid="new-pipeline-page">
      <Link component={RouterLink} to="/pipelines" variant="body2">
        {t('pipelines.editor.back')}
      </Link>
      <Typography variant="h4" component="h1" sx={{ mb: 3, mt: 1 }}>
        {t('pipelines.editor.newTitle')}
      </Typography>
      <PipelineForm
        initialName=""
        initialDefinition={SAMPLE_PIPELINE}
        permission="pipelines:create"
        submitLabel={t('pipelines.editor.create')}
        onSubmit={(value) => create(value)}
        onSaved={(created) => void navigate(`/pipelines/${created.id}`)}
      />
    </Box>
  );
}
