import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '@slipway/contracts';
import { AreaPage } from '../../ui/AreaPage';
import { EmptyState } from '../../ui/EmptyState';
import { Loaded } from '../../ui/Loaded';
import { Section } from '../../ui/Section';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { CreateButton } from '../access/PermissionActions';
import { useCan } from '../access/usePermission';
import { useDeleteRoleMutation, useRolesQuery } from './api';
import { RoleDialog } from './RoleDialog';
import { RolesTable } from './RolesTable';

/** Roles: the built-in ones, and custom roles with a permission matrix (create, edit, delete). */
export default function RolesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('roles.title'));
  const can = useCan();
  const query = useRolesQuery();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const deletion = useConfirmDelete(useDeleteRoleMutation(), (role: Role) => ({
    title: t('roles.confirmDelete.title', { name: role.name }),
    body: t('roles.confirmDelete.body'),
  }));

  const body = (
    <Loaded query={query} lines={6} what={t('roles.loadError')}>
      {(roles) => {
        const custom = roles.filter((r) => !r.builtIn);
        return (
          <>
            <Section id="custom-roles-heading" title={t('roles.customTitle')}>
              {custom.length === 0 ? (
                <EmptyState icon={AdminPanelSettings} title={t('roles.emptyTitle')}>
                  <Typography color="text.secondary">{t('roles.emptyBody')}</Typography>
                </EmptyState>
              ) : (
                <RolesTable
                  roles={custom}
                  label={t('roles.customTitle')}
                  canEdit={can('roles:edit')}
                  canDelete={can('roles:delete')}
                  onEdit={setEditing}
                  onDelete={deletion.ask}
                />
              )}
            </Section>
            <Section id="builtin-roles-heading" title={t('roles.builtInTitle')}>
              <RolesTable
                roles={roles.filter((r) => r.builtIn)}
                label={t('roles.builtInTitle')}
                canEdit={false}
                canDelete={false}
              />
            </Section>
          </>
        );
      }}
    </Loaded>
  );

  return (
    <AreaPage
      id="roles"
      title={t('roles.title')}
      maxWidth={1100}
      actions={
        <CreateButton permission="roles:create" onClick={() => setEditing('new')}>
          {t('roles.createTitle')}
        </CreateButton>
      }
    >
      {body}
      {editing ? (
        <RoleDialog role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deletion.dialog}
    </AreaPage>
  );
}
