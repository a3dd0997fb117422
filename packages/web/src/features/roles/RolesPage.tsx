import Add from '@mui/icons-material/Add';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '@slipway/contracts';
import { EmptyState } from '../../ui/EmptyState';
import { LoadError } from '../../ui/LoadError';
import { Section } from '../../ui/Section';
import { Skeleton } from '../../ui/Skeleton';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { PermissionButton } from '../access/Can';
import { useCan } from '../access/usePermission';
import { useDeleteRoleMutation, useRolesQuery } from './api';
import { RoleDialog } from './RoleDialog';
import { RolesTable } from './RolesTable';

/** Roles: the built-in ones, and custom roles with a permission matrix (create, edit, delete). */
export default function RolesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('roles.title'));
  const can = useCan();
  const { data: roles, error, isLoading, isFetching, refetch } = useRolesQuery();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const deletion = useConfirmDelete(useDeleteRoleMutation(), (role: Role) => ({
    title: t('roles.confirmDelete.title', { name: role.name }),
    body: t('roles.confirmDelete.body'),
  }));

  const builtIn = roles?.filter((r) => r.builtIn) ?? [];
  const custom = roles?.filter((r) => !r.builtIn) ?? [];

  let body;
  if (isLoading) body = <Skeleton lines={6} />;
  else if (!roles)
    body = (
      <LoadError
        what={t('roles.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else
    body = (
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
          <RolesTable roles={builtIn} label={t('roles.builtInTitle')} canEdit={false} canDelete={false} />
        </Section>
      </>
    );

  return (
    <Box data-testid="area-roles" sx={{ maxWidth: 1100, display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {t('roles.title')}
        </Typography>
        <PermissionButton
          permission="roles:create"
          variant="contained"
          startIcon={<Add />}
          onClick={() => setEditing('new')}
        >
          {t('roles.createTitle')}
        </PermissionButton>
      </Box>
      {body}
      {editing ? (
        <RoleDialog role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deletion.dialog}
    </Box>
  );
}
