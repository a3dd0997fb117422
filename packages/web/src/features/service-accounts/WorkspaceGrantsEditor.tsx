import Delete from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Role, Workspace } from '@slipway/contracts';
import { Button } from '../../ui/Button';

export interface WorkspaceGrant {
  workspaceId: string;
  role: string;
}

/** A service account's project permissions: a role per workspace, each workspace once. */
export function WorkspaceGrantsEditor({
  grants,
  onChange,
  workspaces,
  roles,
}: {
  grants: WorkspaceGrant[];
  onChange: (grants: WorkspaceGrant[]) => void;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
}) {
  const { t } = useTranslation();
  const unused = workspaces.filter((w) => !grants.some((g) => g.workspaceId === w.id));
  const change = (i: number, patch: Partial<WorkspaceGrant>) =>
    onChange(grants.map((g, j) => (j === i ? { ...g, ...patch } : g)));
  return (
    <>
      <Typography variant="subtitle2" component="h3">
        {t('serviceAccountsPage.create.permissions')}
      </Typography>
      {grants.map((g, i) => (
        <Stack key={i} direction="row" spacing={1} alignItems="center" data-testid="sa-grant-row">
          <TextField
            select
            size="small"
            label={t('team.workspace')}
            value={g.workspaceId}
            onChange={(e) => change(i, { workspaceId: e.target.value })}
            sx={{ flex: 1 }}
          >
            {workspaces
              .filter((w) => w.id === g.workspaceId || unused.includes(w))
              .map((w) => (
                <MenuItem key={w.id} value={w.id}>
                  {w.name}
                </MenuItem>
              ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('team.workspaceRole')}
            value={g.role}
            onChange={(e) => change(i, { role: e.target.value })}
            sx={{ flex: 1 }}
          >
            {roles.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <IconButton
            aria-label={t('serviceAccountsPage.create.removeWorkspace')}
            onClick={() => onChange(grants.filter((_, j) => j !== i))}
          >
            <Delete />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button
          size="small"
          disabled={unused.length === 0}
          onClick={() => onChange([...grants, { workspaceId: unused[0]!.id, role: 'viewer' }])}
        >
          {t('serviceAccountsPage.create.addWorkspace')}
        </Button>
      </div>
    </>
  );
}
