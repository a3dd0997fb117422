import { useTranslation } from 'react-i18next';
import { Loaded } from '../../ui/Loaded';
import { usePermission } from '../access/usePermission';
import { useWorkspacesQuery } from '../account/api';
import { useProfileQuery } from '../profile/api';
import { DirectoryLink } from './DirectoryLink';
import { useRolesQuery, workspaceRoleOptions } from '../roles/api';
import { useSsoSettingsQuery } from './api';
import { SsoSettingsForm } from './SsoSettingsForm';

/** Enterprise SSO settings, loaded; editable with sso:edit. */
export function SsoSection() {
  const { t } = useTranslation();
  const query = useSsoSettingsQuery();
  const { data: workspaces = [] } = useWorkspacesQuery();
  const { data: roles } = useRolesQuery();
  const canEdit = usePermission('sso:edit').allowed;
  const { data: profile } = useProfileQuery();
  return (
    <Loaded query={query} lines={6} what={t('sso.loadError')}>
      {(data) => (
        <>
          {data.enabled && profile ? <DirectoryLink organisationId={profile.organisationId} /> : null}
          <SsoSettingsForm
            key={data.updatedAt ?? 'new'}
            settings={data}
            canEdit={canEdit}
            workspaces={workspaces}
            roles={workspaceRoleOptions(roles)}
          />
        </>
      )}
    </Loaded>
  );
}
