import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { projectSelected } from '../../features/auth/auth-slice';
import { currentWorkspaces, useProfileQuery } from '../../features/profile/api';
import { useAppDispatch, useAppSelector } from '../hooks';

/**
 * The workspace every workspace-scoped call names (x-workspace-id). When none is chosen yet, or
 * the chosen one is no longer the user's, the first one is taken.
 */
export function WorkspacePicker() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const projectId = useAppSelector((s) => s.auth.projectId);
  const { data: profile } = useProfileQuery();
  const workspaces = profile ? currentWorkspaces(profile) : [];
  const known = workspaces.some((w) => w.id === projectId);
  const first = workspaces[0]?.id;

  useEffect(() => {
    if (first && !known) dispatch(projectSelected(first));
  }, [dispatch, first, known]);

  if (workspaces.length === 0) return null;
  return (
    <TextField
      select
      size="small"
      label={t('workspace.label')}
      value={known ? projectId : ''}
      onChange={(e) => dispatch(projectSelected(e.target.value))}
      data-testid="workspace-picker"
      sx={{
        minWidth: 180,
        display: { xs: 'none', sm: 'inline-flex' },
        '& .MuiInputLabel-root, & .MuiInputLabel-root.Mui-focused, & .MuiInputBase-root, & .MuiSvgIcon-root':
          {
            color: 'inherit',
          },
        '& .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255, 255, 255, 0.5)' },
      }}
      slotProps={{ select: { id: 'workspace-select' }, inputLabel: { id: 'workspace-label' } }}
    >
      {workspaces.map((w) => (
        <MenuItem key={w.id} value={w.id}>
          {w.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
