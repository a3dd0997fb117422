import CallSplit from '@mui/icons-material/CallSplit';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExternalPipeline } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { ListAreaPage } from '../access/ListAreaPage';
import { useCan } from '../access/usePermission';
import {
  useDeleteExternalPipelineMutation,
  useExternalPipelinesQuery,
  useSyncExternalPipelineMutation,
} from './api';
import { ExternalPipelineDialog } from './ExternalPipelineDialog';
import { ExternalPipelinesTable, type ExternalPipelineAction } from './ExternalPipelinesTable';

const PERMISSION = { sync: 'pipelines:edit', edit: 'pipelines:edit', delete: 'pipelines:delete' } as const;

/**
 * External pipelines: pipelines whose Tekton definition lives in a git repository. Each can be
 * synced now (a new version when the file changed); a run of one syncs first.
 */
export default function ExternalPipelinesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('externalPipelines.title'));
  const can = useCan();
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const list = useExternalPipelinesQuery(listParams.params);
  const [dialog, setDialog] = useState<{ pipeline?: ExternalPipeline } | null>(null);
  const [confirm, setConfirm] = useState<ExternalPipeline | null>(null);
  const [remove, removal] = useDeleteExternalPipelineMutation();
  const [sync, syncing] = useSyncExternalPipelineMutation();
  const [notice, setNotice] = useState<{ severity: 'success' | 'info' | 'error'; text: string } | null>(null);
  const closeConfirm = () => {
    removal.reset();
    setConfirm(null);
  };

  async function onAction(action: ExternalPipelineAction, pipeline: ExternalPipeline) {
    if (action === 'edit') return setDialog({ pipeline });
    if (action === 'delete') return setConfirm(pipeline);
    setNotice(null);
    const answer = await sync(pipeline.id);
    if (answer.error) return setNotice({ severity: 'error', text: errorMessage(answer.error) });
    const { outcome, pipeline: synced } = answer.data;
    setNotice({
      severity: outcome === 'failed' ? 'error' : outcome === 'changed' ? 'success' : 'info',
      text: t(`externalPipelines.outcome.${outcome}`, { name: synced.name, version: synced.version }),
    });
  }

  async function onConfirm() {
    if (confirm && !(await remove(confirm.id)).error) closeConfirm();
  }

  const body = (
    <ExternalPipelinesTable
      pipelines={list.data?.rows}
      states={listStates(list, t('externalPipelines.loadError'), {
        empty: (
          <EmptyState icon={CallSplit} title={t('externalPipelines.emptyTitle')}>
            <Typography color="text.secondary">{t('externalPipelines.emptyBody')}</Typography>
          </EmptyState>
        ),
        ...listParams.table,
      })}
      allowed={(action) => can(PERMISSION[action])}
      syncing={syncing.isLoading ? (syncing.originalArgs ?? null) : null}
      onAction={(action, pipeline) => void onAction(action, pipeline)}
    />
  );

  return (
    <ListAreaPage
      id="externalPipelines"
      title={t('externalPipelines.title')}
      create={{
        permission: 'pipelines:create',
        label: t('externalPipelines.create'),
        onClick: () => setDialog({}),
      }}
      notice={{ message: notice?.text, severity: notice?.severity }}
      section={{ id: 'external-pipelines-heading', title: t('externalPipelines.listTitle') }}
      list={body}
    >
      {dialog ? <ExternalPipelineDialog pipeline={dialog.pipeline} onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('externalPipelines.confirmDelete.title', { name: confirm?.name ?? '' })}
        body={t('externalPipelines.confirmDelete.body')}
        confirmLabel={t('common.delete')}
        loading={removal.isLoading}
        error={removal.error ? errorMessage(removal.error) : null}
        onClose={closeConfirm}
        onConfirm={() => void onConfirm()}
      />
    </ListAreaPage>
  );
}
