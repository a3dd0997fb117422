import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineDetail } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { FormAlert } from '../../ui/FormAlert';
import { SelectField } from '../../ui/SelectField';
import { usePermission } from '../access/usePermission';
import { usePipelinesQuery, useUpdatePipelineMutation } from './api';

/**
 * The pipeline a run's "Roll back" starts (with the last good run's params): another pipeline of
 * the workspace, or none, in which case runs offer no roll back. Saved as it is chosen.
 */
export function RollbackPipelineField({ pipeline }: { pipeline: PipelineDetail }) {
  const { t } = useTranslation();
  const { allowed } = usePermission('pipelines:edit');
  const others = usePipelinesQuery({ _start: '0', _end: '500', _sort: 'name' });
  const [update, { isLoading, error }] = useUpdatePipelineMutation();
  const [saved, setSaved] = useState(false);
  const options = (others.data?.rows ?? [])
    .filter((p) => p.id !== pipeline.id)
    .map((p) => ({ value: p.id, label: p.name }));
  return (
    <Stack spacing={1} sx={{ maxWidth: 480, mb: 3 }}>
      <SelectField
        id="rollback-pipeline"
        label={t('pipelines.editor.rollbackPipeline')}
        value={pipeline.rollbackPipelineId ?? ''}
        disabled={!allowed || isLoading}
        none={t('pipelines.editor.noRollbackPipeline')}
        options={options}
        onChange={(e) => {
          setSaved(false);
          void update({ id: pipeline.id, body: { rollbackPipelineId: e.target.value || null } })
            .unwrap()
            .then(() => setSaved(true))
            .catch(() => undefined);
        }}
        helperText={t('pipelines.editor.rollbackHelp')}
        fullWidth
        size="small"
      />
      <FormAlert message={error ? errorMessage(error) : null} />
      {saved ? (
        <Typography variant="body2" color="success.main" role="status">
          {t('pipelines.editor.rollbackSaved')}
        </Typography>
      ) : null}
    </Stack>
  );
}
