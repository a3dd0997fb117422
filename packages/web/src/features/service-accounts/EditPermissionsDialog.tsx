import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  serviceAccountWorkspacesRequestSchema,
  type Role,
  type ServiceAccount,
  type Workspace,
} from '@slipway/contracts';
import { errorMessage } from '../../app/api-error';
import { Button } from '../../ui/Button';
import { FormAlert } from '../../ui/FormAlert';
import { useSetServiceAccountWorkspacesMutation } from './api';
import { WorkspaceGrantsEditor, type WorkspaceGrant } from './WorkspaceGrantsEditor';

/** Changes an existing service account's project permissions (a role per workspace); its token stays. */
export function EditPermissionsDialog({
  account,
  workspaces,
  roles,
  onClose,
}: {
  account: ServiceAccount;
  workspaces: Workspace[];
  roles: Pick<Role, 'id' | 'name'>[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [grants, setGrants] = useState<WorkspaceGrant[]>(account.workspaces);
  const [invalid, setInvalid] = useState(false);
  const [save, { isLoading, error }] = useSetServiceAccountWorkspacesMutation();

  async function submit() {
    const body = serviceAccountWorkspacesRequestSchema.safeParse({ workspaces: grants });
    setInvalid(!body.success);
    if (!body.success) return;
    const answer = await save({ id: account.id, workspaces: body.data.workspaces });
    if (!answer.error) onClose();
  }

  return (
    <Dialog
      open
      onClose={isLoading ? undefined : onClose}
      aria-labelledby="sa-edit-title"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="sa-edit-title">
        {t('serviceAccountsPage.edit.title', { name: account.name })}
      </DialogTitle>
      <DialogContent>
        <FormAlert
          message={
            invalid ? t('serviceAccountsPage.create.workspacesInvalid') : error ? errorMessage(error) : null
          }
        />
        <Stack spacing={2} sx={{ pt: 1 }}>
          <WorkspaceGrantsEditor grants={grants} onChange={setGrants} workspaces={workspaces} roles={roles} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" loading={isLoading} onClick={() => void submit()}>
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
