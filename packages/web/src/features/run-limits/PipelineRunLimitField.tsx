import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { RunLimitField } from './RunLimitField';

/** A pipeline's limit on its runs in progress at once, on its page beside the rollback pipeline. */
export function PipelineRunLimitField({ pipelineId }: { pipelineId: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 480, mb: 3 }}>
      <RunLimitField target={{ kind: 'pipelines', id: pipelineId }} label={t('runLimits.pipeline.field')} />
    </Box>
  );
}
