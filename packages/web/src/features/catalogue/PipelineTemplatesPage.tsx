import ViewQuilt from '@mui/icons-material/ViewQuilt';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineDetail, PipelineSummary } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { listStates } from '../../ui/list-states';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { PermissionButton } from '../access/Can';
import { ListAreaPage } from '../access/ListAreaPage';
import { usePermission } from '../access/usePermission';
import { SAMPLE_PIPELINE } from '../../app/samples';
import {
  useCreatePipelineTemplateMutation,
  useDeletePipelineTemplateMutation,
  useLazyPipelineTemplateQuery,
  usePipelineTemplatesQuery,
  useUpdatePipelineTemplateMutation,
} from './api';
import { useTemplateDeletion } from './DeleteTemplateDialog';
import { TemplateDialog, templateValue } from './TemplateDialog';
import { TemplatesTable } from './TemplatesTable';
import { UseTemplateDialog } from './UseTemplateDialog';

/** Pipeline templates: list, view and edit the YAML, create, delete, and use one as a new pipeline. */
export default function PipelineTemplatesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('catalogue.pipelineTemplates'));
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const list = usePipelineTemplatesQuery(listParams.params);
  const [load, loaded] = useLazyPipelineTemplateQuery();
  const [editing, setEditing] = useState<PipelineDetail | 'new' | null>(null);
  const [using, setUsing] = useState<PipelineSummary | null>(null);
  const [create, created] = useCreatePipelineTemplateMutation();
  const [update] = useUpdatePipelineTemplateMutation();
  const deletion = useTemplateDeletion<PipelineSummary>(
    useDeletePipelineTemplateMutation(),
    'pipelineTemplates:delete',
    t('catalogue.deletePipelineTemplateBody'),
  );
  const canEdit = usePermission('pipelineTemplates:edit').allowed;

  function open(row: PipelineSummary) {
    void load(row.id)
      .unwrap()
      .then((template) => setEditing(template))
      .catch(() => undefined);
  }

  const body = (
    <TemplatesTable<PipelineSummary>
      label={t('catalogue.pipelineTemplates')}
      rows={list.data?.rows}
      rowTestId="template-row"
      sortable
      actions={(row) => (
        <>
          <Button
            size="small"
            onClick={() => open(row)}
            loading={loaded.isFetching && loaded.originalArgs === row.id}
          >
            {t('catalogue.open')}
          </Button>
          <PermissionButton size="small" permission="pipelines:create" onClick={() => setUsing(row)}>
            {t('catalogue.use')}
          </PermissionButton>
          {deletion.button(row)}
        </>
      )}
      states={listStates(list, t('catalogue.loadError'), {
        empty: (
          <EmptyState icon={ViewQuilt} title={t('catalogue.noPipelineTemplates')}>
            {t('catalogue.noPipelineTemplatesBody')}
          </EmptyState>
        ),
        ...listParams.table,
      })}
    />
  );

  return (
    <ListAreaPage
      id="pipeline-templates"
      testId="pipeline-templates-page"
      title={t('catalogue.pipelineTemplates')}
      create={{
        permission: 'pipelineTemplates:create',
        label: t('catalogue.newPipelineTemplate'),
        onClick: () => {
          created.reset();
          setEditing('new');
        },
      }}
      notice={{ message: loaded.isError ? errorMessage(loaded.error) : null }}
      list={body}
    >
      {editing ? (
        <TemplateDialog
          key={editing === 'new' ? 'new' : editing.id}
          title={editing === 'new' ? t('catalogue.newPipelineTemplate') : t('catalogue.editPipelineTemplate')}
          initial={templateValue(editing, SAMPLE_PIPELINE)}
          readOnly={editing !== 'new' && !canEdit}
          onClose={() => setEditing(null)}
          onSave={(value) => (editing === 'new' ? create(value) : update({ id: editing.id, body: value }))}
        />
      ) : null}
      {deletion.dialog}
      {using ? <UseTemplateDialog template={using} onClose={() => setUsing(null)} /> : null}
    </ListAreaPage>
  );
}
