import FileDownload from '@mui/icons-material/FileDownload';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineRunDetail } from '@slipway/contracts';
import { downloadApiFile } from '../../app/download-file';
import { useAppSelector } from '../../app/hooks';

/** Downloads the run as a Tekton v1 PipelineRun (YAML): the spec it ran with and its status. */
export function RunExportButton({ run }: { run: PipelineRunDetail }) {
  const { t } = useTranslation();
  const auth = useAppSelector((s) => s.auth);
  const [failed, setFailed] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FileDownload />}
        data-testid="run-export"
        onClick={() => {
          setFailed(false);
          downloadApiFile(
            `pipelineruns/${encodeURIComponent(run.id)}/export?format=yaml`,
            auth,
            `${run.name}.yaml`,
          )
            .then((status) => setFailed(status !== null))
            .catch(() => setFailed(true));
        }}
      >
        {t('pipelines.fromYaml.export')}
      </Button>
      {failed ? (
        <Typography color="error" variant="body2" role="alert">
          {t('pipelines.fromYaml.exportError')}
        </Typography>
      ) : null}
    </>
  );
}
