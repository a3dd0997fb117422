import { useTranslation } from 'react-i18next';
import { LoadError } from '../../ui/LoadError';
import { Skeleton } from '../../ui/Skeleton';
import { usePermission } from '../access/usePermission';
import { useWorkspacesQuery } from '../account/api';
import { useRolesQuery, workspaceRoleOptions } from '../roles/api';
import { useSsoSettingsQuery } from './api';
import { SsoSettingsForm } from './SsoSettingsForm';

/** Enterprise SSO settings, loaded; editable with sso:edit. */
export function SsoSection() {
  const { t } = useTranslation();
  const { data, error, isLoading, isFetching, refetch } = useSsoSettingsQuery();
  const { data: workspaces = [] } = useWorkspacesQuery();
  const { data: roles } = useRolesQuery();
  const canEdit = usePermission('sso:edit').allowed;
  if (isLoading) return <Skeleton lines={6} />;
  if (!data)
    return (
      <LoadError
        what={t('sso.loadError')}
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  return (
    <SsoSettingsForm
      key={data.updatedAt ?? 'new'}
      settings={data}
      canEdit={canEdit}
      workspaces={workspaces}
      roles={workspaceRoleOptions(roles)}
    />
  );
}
