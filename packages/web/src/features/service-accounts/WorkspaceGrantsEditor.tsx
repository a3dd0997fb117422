import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Role, Workspace } from '@slipway/contracts';
import { EditableRows } from '../../ui/EditableRows';
import { namedOptions, SelectField } from '../../ui/SelectField';

export interface WorkspaceGrant {
  workspaceId: string;
  role: string;
}

/** The form a grants editor edits: its `workspaces` value. */
export interface GrantsForm {
  values: { workspaces: WorkspaceGrant[] };
  setValue: (name: 'workspaces', grants: WorkspaceGrant[]) => void;
}

/** A service account's project permissions (its form's `workspaces`): a role per workspace, each workspace once. */
export function WorkspaceGrantsEditor({
  form,
  workspaces,
  roles,
}: {
  form: GrantsForm;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
}) {
  const { t } = useTranslation();
  const grants = form.values.workspaces;
  const onChange = (next: WorkspaceGrant[]) => form.setValue('workspaces', next);
  const unused = workspaces.filter((w) => !grants.some((g) => g.workspaceId === w.id));
  return (
    <>
      <Typography variant="subtitle2" component="h3">
        {t('serviceAccountsPage.create.permissions')}
      </Typography>
      <EditableRows
        rows={grants}
        onChange={onChange}
        rowTestId="sa-grant-row"
        removeLabel={t('serviceAccountsPage.create.removeWorkspace')}
        addLabel={t('serviceAccountsPage.create.addWorkspace')}
        addDisabled={unused.length === 0}
        newRow={() => ({ workspaceId: unused[0]!.id, role: 'viewer' })}
        fields={(g, set) => (
          <>
            <SelectField
              size="small"
              label={t('team.workspace')}
              value={g.workspaceId}
              onChange={(e) => set({ ...g, workspaceId: e.target.value })}
              sx={{ flex: 1 }}
              options={namedOptions(workspaces.filter((w) => w.id === g.workspaceId || unused.includes(w)))}
            />
            <SelectField
              size="small"
              label={t('team.workspaceRole')}
              value={g.role}
              onChange={(e) => set({ ...g, role: e.target.value })}
              sx={{ flex: 1 }}
              options={namedOptions(roles)}
            />
          </>
        )}
      />
    </>
  );
}
