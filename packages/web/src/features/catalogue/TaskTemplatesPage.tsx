import Add from '@mui/icons-material/Add';
import Extension from '@mui/icons-material/Extension';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskTemplate } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { AreaPage } from '../../ui/AreaPage';
import { EmptyState } from '../../ui/EmptyState';
import { ListStates } from '../../ui/ListStates';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { PermissionButton } from '../access/Can';
import { usePermission } from '../access/usePermission';
import { formatTime } from '../pipelines/format';
import {
  useCreateTaskTemplateMutation,
  useDeleteTaskTemplateMutation,
  useTaskTemplatesQuery,
  useUpdateTaskTemplateMutation,
} from './api';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { TemplateDialog } from './TemplateDialog';

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

type Editing = { kind: 'new' } | { kind: 'edit'; task: TaskTemplate };

/**
 * Task templates: the built-ins (read-only: view their YAML) and the workspace's own ones
 * (create, edit, delete), each a Tekton Task a pipeline can reference by name.
 */
export default function TaskTemplatesPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('catalogue.taskTemplates'));
  const list = useTaskTemplatesQuery();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<TaskTemplate | null>(null);
  const [create, created] = useCreateTaskTemplateMutation();
  const [update, updated] = useUpdateTaskTemplateMutation();
  const [remove, removed] = useDeleteTaskTemplateMutation();
  const canEdit = usePermission('taskTemplates:edit').allowed;

  const body = (
    <ListStates
      query={list}
      lines={5}
      what={t('catalogue.loadError')}
      empty={<EmptyState icon={Extension} title={t('catalogue.noTaskTemplates')} />}
    >
      {(data) => (
        <TableContainer>
          <Table size="small" aria-label={t('catalogue.taskTemplates')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('catalogue.name')}</TableCell>
                <TableCell>{t('catalogue.description')}</TableCell>
                <TableCell>{t('catalogue.version')}</TableCell>
                <TableCell>{t('catalogue.updated')}</TableCell>
                <TableCell align="right">{t('catalogue.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((task) => (
                <TableRow key={task.id} data-testid="task-template-row">
                  <TableCell>
                    {task.name}{' '}
                    {task.builtIn ? (
                      <Chip size="small" label={t('catalogue.builtIn')} data-testid="built-in" />
                    ) : null}
                  </TableCell>
                  <TableCell>{task.description}</TableCell>
                  <TableCell>{task.version}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatTime(task.updatedAt, i18n.language)}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      onClick={() => {
                        updated.reset();
                        setEditing({ kind: 'edit', task });
                      }}
                    >
                      {task.builtIn || !canEdit ? t('catalogue.view') : t('catalogue.edit')}
                    </Button>
                    {task.builtIn ? null : (
                      <PermissionButton
                        size="small"
                        color="error"
                        permission="taskTemplates:delete"
                        onClick={() => {
                          removed.reset();
                          setDeleting(task);
                        }}
                      >
                        {t('catalogue.delete')}
                      </PermissionButton>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </ListStates>
  );

  return (
    <AreaPage
      id="task-templates"
      testId="task-templates-page"
      title={t('catalogue.taskTemplates')}
      actions={
        <PermissionButton
          permission="taskTemplates:create"
          variant="contained"
          startIcon={<Add />}
          onClick={() => {
            created.reset();
            setEditing({ kind: 'new' });
          }}
        >
          {t('catalogue.newTaskTemplate')}
        </PermissionButton>
      }
    >
      {body}
      {editing ? (
        <TemplateDialog
          key={editing.kind === 'edit' ? editing.task.id : 'new'}
          title={
            editing.kind === 'new'
              ? t('catalogue.newTaskTemplate')
              : editing.task.builtIn
                ? t('catalogue.builtInTitle', { name: editing.task.name })
                : t('catalogue.editTaskTemplate')
          }
          readOnly={editing.kind === 'edit' && (editing.task.builtIn || !canEdit)}
          initial={
            editing.kind === 'new'
              ? { name: '', description: '', definition: SAMPLE_TASK }
              : {
                  name: editing.task.name,
                  description: editing.task.description,
                  definition: editing.task.definition,
                }
          }
          saving={created.isLoading || updated.isLoading}
          error={editing.kind === 'new' ? created.error : updated.error}
          onClose={() => setEditing(null)}
          onSave={(value) => {
            const done =
              editing.kind === 'new'
                ? create(value).unwrap()
                : update({ id: editing.task.id, body: value }).unwrap();
            done.then(() => setEditing(null)).catch(() => undefined);
          }}
        />
      ) : null}
      <DeleteTemplateDialog
        target={deleting}
        body={t('catalogue.deleteTaskTemplateBody')}
        remove={remove}
        state={removed}
        onClose={() => setDeleting(null)}
      />
    </AreaPage>
  );
}
