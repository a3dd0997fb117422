import Delete from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { SSO_ORGANISATION_ROLES, type Role, type SsoGroupRole, type Workspace } from '@slipway/contracts';
import { Button } from '../../ui/Button';

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
  const set = (i: number, patch: Partial<SsoGroupRole>) =>
    onChange(rows.map((r, j) => (j === i ? ({ ...r, ...patch } as SsoGroupRole) : r)));
  return (
    <Stack spacing={1.5}>
      {rows.map((r, i) => (
        <Stack
          key={i}
          direction={{ xs: 'column', md: 'row' }}
          spacing={1}
          alignItems="center"
          data-testid="sso-group-row"
        >
          <TextField
            size="small"
            label={t('sso.group')}
            value={r.group}
            disabled={disabled}
            onChange={(e) => set(i, { group: e.target.value })}
            sx={{ flex: 2 }}
          />
          <TextField
            select
            size="small"
            label={t('team.organisationRole')}
            value={r.organisationRole}
            disabled={disabled}
            onChange={(e) => set(i, { organisationRole: e.target.value as SsoGroupRole['organisationRole'] })}
            sx={{ flex: 1, minWidth: 150 }}
          >
            {SSO_ORGANISATION_ROLES.map((o) => (
              <MenuItem key={o} value={o}>
                {t(`team.orgRoles.${o}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('team.workspace')}
            value={r.workspaceId ?? ''}
            disabled={disabled}
            onChange={(e) => {
              const { workspaceId: _w, workspaceRole: _r, ...rest } = r;
              onChange(
                rows.map((x, j) =>
                  j === i
                    ? e.target.value
                      ? {
                          ...rest,
                          workspaceId: e.target.value,
                          workspaceRole: r.workspaceRole ?? 'developer',
                        }
                      : rest
                    : x,
                ),
              );
            }}
            sx={{ flex: 1, minWidth: 150 }}
          >
            <MenuItem value="">{t('sso.noWorkspace')}</MenuItem>
            {workspaces.map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
          {r.workspaceId ? (
            <TextField
              select
              size="small"
              label={t('team.workspaceRole')}
              value={r.workspaceRole ?? ''}
              disabled={disabled}
              onChange={(e) => set(i, { workspaceRole: e.target.value })}
              sx={{ flex: 1, minWidth: 150 }}
            >
              {roles.map((x) => (
                <MenuItem key={x.id} value={x.id}>
                  {x.name}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          <IconButton
            aria-label={t('sso.removeGroup')}
            disabled={disabled}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            <Delete />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button
          size="small"
          disabled={disabled}
          onClick={() => onChange([...rows, { group: '', organisationRole: 'member' }])}
        >
          {t('sso.addGroup')}
        </Button>
      </div>
    </Stack>
  );
}
