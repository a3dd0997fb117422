import ViewQuilt from '@mui/icons-material/ViewQuilt';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineDetail, PipelineSummary } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { Button } from '../../ui/Button';
import { AreaPage } from '../../ui/AreaPage';
import { EmptyState } from '../../ui/EmptyState';
import { FormAlert } from '../../ui/FormAlert';
import { listStates } from '../../ui/list-states';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useListParams } from '../../ui/useListParams';
import { PermissionButton } from '../access/Can';
import { CreateButton } from '../access/PermissionActions';
import { usePermission } from '../access/usePermission';
import { SAMPLE_PIPELINE } from '../../app/samples';
import {
  useCreatePipelineTemplateMutation,
  useDeletePipelineTemplateMutation,
  useLazyPipelineTemplateQuery,
  usePipelineTemplatesQuery,
  useUpdatePipelineTemplateMutation,
} from './api';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { TemplateDialog } from './TemplateDialog';
import { TemplatesTable } from './TemplatesTable';
import { UseTemplateDialog } from './UseTemplateDialog';

type Editing = { kind: 'new' } | { kind: 'edit'; template: PipelineDetail };

/** Pipeline templates: list, view and edit the YAML, create, delete, and use one as a new pipeline. */
export default function PipelineTemplatesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('catalogue.pipelineTemplates'));
  const listParams = useListParams({ sort: { key: 'name', order: 'asc' } });
  const list = usePipelineTemplatesQuery(listParams.params);
  const [load, loaded] = useLazyPipelineTemplateQuery();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<PipelineSummary | null>(null);
  const [using, setUsing] = useState<PipelineSummary | null>(null);
  const [create, created] = useCreatePipelineTemplateMutation();
  const [update] = useUpdatePipelineTemplateMutation();
  const [remove, removed] = useDeletePipelineTemplateMutation();
  const canEdit = usePermission('pipelineTemplates:edit').allowed;

  function open(row: PipelineSummary) {
    void load(row.id)
      .unwrap()
      .then((template) => setEditing({ kind: 'edit', template }))
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
          <PermissionButton
            size="small"
            color="error"
            permission="pipelineTemplates:delete"
            onClick={() => {
              removed.reset();
              setDeleting(row);
            }}
          >
            {t('catalogue.delete')}
          </PermissionButton>
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
    <AreaPage
      id="pipeline-templates"
      testId="pipeline-templates-page"
      title={t('catalogue.pipelineTemplates')}
      actions={
        <CreateButton
          permission="pipelineTemplates:create"
          onClick={() => {
            created.reset();
            setEditing({ kind: 'new' });
          }}
        >
          {t('catalogue.newPipelineTemplate')}
        </CreateButton>
      }
    >
      <FormAlert message={loaded.isError ? errorMessage(loaded.error) : null} />
      {body}
      {editing ? (
        <TemplateDialog
          key={editing.kind === 'edit' ? editing.template.id : 'new'}
          title={
            editing.kind === 'new' ? t('catalogue.newPipelineTemplate') : t('catalogue.editPipelineTemplate')
          }
          initial={
            editing.kind === 'new'
              ? { name: '', description: '', definition: SAMPLE_PIPELINE }
              : {
                  name: editing.template.name,
                  description: editing.template.description,
                  definition: editing.template.definition,
                }
          }
          readOnly={editing.kind === 'edit' && !canEdit}
          onClose={() => setEditing(null)}
          onSave={(value) =>
            editing.kind === 'new' ? create(value) : update({ id: editing.template.id, body: value })
          }
        />
      ) : null}
      <DeleteTemplateDialog
        target={deleting}
        body={t('catalogue.deletePipelineTemplateBody')}
        remove={remove}
        state={removed}
        onClose={() => setDeleting(null)}
      />
      {using ? <UseTemplateDialog template={using} onClose={() => setUsing(null)} /> : null}
    </AreaPage>
  );
}
