import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { SSO_ORGANISATION_ROLES, type Role, type SsoGroupRole, type Workspace } from '@slipway/contracts';
import { EditableRows } from '../../ui/EditableRows';
import { namedOptions, SelectField } from '../../ui/SelectField';

/** Directory group → organisation role, and optionally a role in one workspace. */
export function GroupRoleRows({
  rows,
  onChange,
  workspaces,
  roles,
  disabled,
}: {
  rows: SsoGroupRole[];
  onChange: (rows: SsoGroupRole[]) => void;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      <EditableRows
        rows={rows}
        onChange={onChange}
        rowTestId="sso-group-row"
        direction={{ xs: 'column', md: 'row' }}
        disabled={disabled}
        removeLabel={t('sso.removeGroup')}
        addLabel={t('sso.addGroup')}
        newRow={(): SsoGroupRole => ({ group: '', organisationRole: 'member' })}
        fields={(r, set) => {
          const { workspaceId: _w, workspaceRole: _r, ...rest } = r;
          return (
            <>
              <TextField
                size="small"
                label={t('sso.group')}
                value={r.group}
                disabled={disabled}
                onChange={(e) => set({ ...r, group: e.target.value })}
                sx={{ flex: 2 }}
              />
              <SelectField
                size="small"
                label={t('team.organisationRole')}
                value={r.organisationRole}
                disabled={disabled}
                onChange={(e) =>
                  set({ ...r, organisationRole: e.target.value as SsoGroupRole['organisationRole'] })
                }
                sx={{ flex: 1, minWidth: 150 }}
                options={SSO_ORGANISATION_ROLES.map((o) => ({ value: o, label: t(`team.orgRoles.${o}`) }))}
              />
              <SelectField
                size="small"
                label={t('team.workspace')}
                value={r.workspaceId ?? ''}
                disabled={disabled}
                onChange={(e) =>
                  set(
                    e.target.value
                      ? {
                          ...rest,
                          workspaceId: e.target.value,
                          workspaceRole: r.workspaceRole ?? 'developer',
                        }
                      : rest,
                  )
                }
                sx={{ flex: 1, minWidth: 150 }}
                none={t('sso.noWorkspace')}
                options={namedOptions(workspaces)}
              />
              {r.workspaceId ? (
                <SelectField
                  size="small"
                  label={t('team.workspaceRole')}
                  value={r.workspaceRole ?? ''}
                  disabled={disabled}
                  onChange={(e) => set({ ...r, workspaceRole: e.target.value })}
                  sx={{ flex: 1, minWidth: 150 }}
                  options={namedOptions(roles)}
                />
              ) : null}
            </>
          );
        }}
      />
    </Stack>
  );
}
