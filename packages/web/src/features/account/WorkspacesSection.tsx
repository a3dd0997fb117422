import List from '@mui/material/List';
import ListItemText from '@mui/material/ListItemText';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Workspace } from '@slipway/contracts';
import { ActionListItem } from '../../ui/ActionListItem';
import { Loaded } from '../../ui/Loaded';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { PermissionButton } from '../access/Can';
import { roleLabel, useRolesQuery } from '../roles/api';
import {
  useCreateWorkspaceMutation,
  useDeleteWorkspaceMutation,
  useRenameWorkspaceMutation,
  useWorkspacesQuery,
} from './api';
import { NameDialog } from './NameDialog';

/** Workspaces of the current organisation: create, rename, delete (never the last one). */
export function WorkspacesSection() {
  const { t } = useTranslation();
  const query = useWorkspacesQuery();
  const { data: roles } = useRolesQuery();
  const [create] = useCreateWorkspaceMutation();
  const [rename] = useRenameWorkspaceMutation();
  const deletion = useConfirmDelete(useDeleteWorkspaceMutation(), (workspace: Workspace) => ({
    title: t('account.confirmDelete.title', { name: workspace.name }),
    body: t('account.confirmDelete.body'),
  }));
  const [naming, setNaming] = useState<Workspace | 'new' | null>(null);

  const list = (
    <Loaded query={query} lines={3} what={t('account.workspacesLoadError')}>
      {(data) => (
        <List dense aria-label={t('account.workspacesTitle')}>
          {data.map((w) => (
            <ActionListItem
              key={w.id}
              data-testid="workspace-row"
              actions={
                <>
                  <PermissionButton
                    permission="workspace:edit"
                    size="small"
                    onClick={() => setNaming(w)}
                    aria-label={t('account.renameNamed', { name: w.name })}
                  >
                    {t('account.rename')}
                  </PermissionButton>
                  <PermissionButton
                    permission="workspace:delete"
                    size="small"
                    color="error"
                    disabled={data.length <= 1}
                    onClick={() => deletion.ask(w)}
                    aria-label={t('account.deleteNamed', { name: w.name })}
                  >
                    {t('common.delete')}
                  </PermissionButton>
                </>
              }
            >
              <ListItemText
                primary={w.name}
                secondary={t('account.yourRole', { role: roleLabel(roles, w.role) })}
              />
            </ActionListItem>
          ))}
        </List>
      )}
    </Loaded>
  );

  return (
    <>
      <PermissionButton
        permission="workspace:create"
        variant="outlined"
        onClick={() => setNaming('new')}
        sx={{ mb: 1 }}
      >
        {t('account.createWorkspace')}
      </PermissionButton>
      {list}
      {naming ? (
        <NameDialog
          title={naming === 'new' ? t('account.createWorkspace') : t('account.renameWorkspace')}
          submitLabel={naming === 'new' ? t('account.create') : t('common.save')}
          initial={naming === 'new' ? '' : naming.name}
          onSubmit={(name) => (naming === 'new' ? create({ name }) : rename({ id: naming.id, name }))}
          onClose={() => setNaming(null)}
        />
      ) : null}
      {deletion.dialog}
    </>
  );
}
