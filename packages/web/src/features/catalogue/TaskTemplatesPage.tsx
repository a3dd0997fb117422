import Extension from '@mui/icons-material/Extension';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskTemplate } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { listStates } from '../../ui/list-states';
import { useClientSort } from '../../ui/useClientSort';
import { EmptyState } from '../../ui/EmptyState';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ListAreaPage } from '../access/ListAreaPage';
import { usePermission } from '../access/usePermission';
import {
  useCreateTaskTemplateMutation,
  useDeleteTaskTemplateMutation,
  useTaskTemplatesQuery,
  useUpdateTaskTemplateMutation,
} from './api';
import { useTemplateDeletion } from './DeleteTemplateDialog';
import { TemplateDialog, templateValue } from './TemplateDialog';
import { TemplatesTable } from './TemplatesTable';

/** A starting point for a new task template. */
export const SAMPLE_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: say-hello
spec:
  params:
    - name: who
      type: string
      default: world
  steps:
    - name: say
      image: alpine
      script: |
        echo "hello $(params.who)"
`;

/**
 * Task templates: the built-ins (read-only: view their YAML) and the workspace's own ones
 * (create, edit, delete), each a Tekton Task a pipeline can reference by name.
 */
export default function TaskTemplatesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('catalogue.taskTemplates'));
  const list = useTaskTemplatesQuery();
  const [editing, setEditing] = useState<TaskTemplate | 'new' | null>(null);
  const [create, created] = useCreateTaskTemplateMutation();
  const [update, updated] = useUpdateTaskTemplateMutation();
  const deletion = useTemplateDeletion<TaskTemplate>(
    useDeleteTaskTemplateMutation(),
    'taskTemplates:delete',
    t('catalogue.deleteTaskTemplateBody'),
  );
  const canEdit = usePermission('taskTemplates:edit').allowed;
  // the built-ins and the workspace's own come whole: the headers sort them in the page
  const sorted = useClientSort(list.data, {
    name: (task) => task.name,
    description: (task) => task.description,
    version: (task) => task.version,
    updatedAt: (task) => task.updatedAt,
  });

  const body = (
    <TemplatesTable<TaskTemplate>
      label={t('catalogue.taskTemplates')}
      rows={sorted.rows}
      sortable
      rowTestId="task-template-row"
      name={(task) => (
        <>
          {task.name}{' '}
          {task.builtIn ? <Chip size="small" label={t('catalogue.builtIn')} data-testid="built-in" /> : null}
        </>
      )}
      actions={(task) => (
        <>
          <Button
            size="small"
            onClick={() => {
              updated.reset();
              setEditing(task);
            }}
          >
            {task.builtIn || !canEdit ? t('catalogue.view') : t('catalogue.edit')}
          </Button>
          {task.builtIn ? null : deletion.button(task)}
        </>
      )}
      states={listStates(list, t('catalogue.loadError'), {
        empty: <EmptyState icon={Extension} title={t('catalogue.noTaskTemplates')} />,
        ...sorted.table,
      })}
    />
  );

  return (
    <ListAreaPage
      id="task-templates"
      testId="task-templates-page"
      title={t('catalogue.taskTemplates')}
      create={{
        permission: 'taskTemplates:create',
        label: t('catalogue.newTaskTemplate'),
        onClick: () => {
          created.reset();
          setEditing('new');
        },
      }}
      list={body}
    >
      {editing ? (
        <TemplateDialog
          key={editing === 'new' ? 'new' : editing.id}
          title={
            editing === 'new'
              ? t('catalogue.newTaskTemplate')
              : editing.builtIn
                ? t('catalogue.builtInTitle', { name: editing.name })
                : t('catalogue.editTaskTemplate')
          }
          readOnly={editing !== 'new' && (editing.builtIn || !canEdit)}
          initial={templateValue(editing, SAMPLE_TASK)}
          onClose={() => setEditing(null)}
          onSave={(value) => (editing === 'new' ? create(value) : update({ id: editing.id, body: value }))}
        />
      ) : null}
      {deletion.dialog}
    </ListAreaPage>
  );
}
