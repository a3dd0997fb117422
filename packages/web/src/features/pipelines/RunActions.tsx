import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PipelineRunDetail } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PermissionButton } from '../access/Can';
import { isFinished, usePipelineQuery, useRunActionMutation } from './api';

type Action = 'rerun' | 'abort' | 'rollback';

const COLOURS = { rerun: 'primary', abort: 'error', rollback: 'warning' } as const;
const LABELS = { rerun: 'rerun', abort: 'abort', rollback: 'rollback' } as const;

/**
 * Re-run, abort (while the run goes on) and roll back, each asked for in a dialog first; a
 * re-run or rollback opens the new run. Buttons say when the caller may not run pipelines.
 */
export function RunActions({ run }: { run: PipelineRunDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [act, { isLoading, error, reset }] = useRunActionMutation();
  // Roll back is offered only where the pipeline names the pipeline it starts
  const rollback = Boolean(usePipelineQuery(run.pipelineId).data?.rollbackPipelineId);
  const actions: Action[] = [
    'rerun',
    ...(isFinished(run.status) ? [] : (['abort'] as const)),
    ...(rollback ? (['rollback'] as const) : []),
  ];

  function perform(action: Action) {
    act({ id: run.id, action })
      .unwrap()
      .then((answer) => {
        setConfirming(null);
        if (answer.id !== run.id) void navigate(`/pipelines/runs/${answer.id}`);
      })
      .catch(() => undefined);
  }

  return (
    <>
      <Stack direction="row" useFlexGap spacing={1} sx={{ ml: 'auto', flexWrap: 'wrap' }}>
        {actions.map((a) => (
          <PermissionButton
            key={a}
            permission="pipelines:execute"
            variant="outlined"
            color={COLOURS[a]}
            data-testid={`run-action-${a}`}
            onClick={() => {
              reset();
              setConfirming(a);
            }}
          >
            {t(`pipelines.run.${LABELS[a]}`)}
          </PermissionButton>
        ))}
      </Stack>
      {(['rerun', 'abort', 'rollback'] as const).map((a) => (
        <ConfirmDialog
          key={a}
          open={confirming === a}
          title={t(`pipelines.run.${a}Title`)}
          body={t(`pipelines.run.${a}Body`)}
          confirmLabel={t(`pipelines.run.${LABELS[a]}`)}
          loading={isLoading}
          error={confirming === a && error ? errorMessage(error) : null}
          onConfirm={() => perform(a)}
          onClose={() => setConfirming(null)}
        />
      ))}
    </>
  );
}
