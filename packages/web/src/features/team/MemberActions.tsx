import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member } from '@slipway/contracts';
import { NotAllowedTooltip } from '../access/Can';
import { personName } from './person-columns';

export type MemberAction =
  'makeAccountAdmin' | 'makeMember' | 'makeAdmin' | 'makeProjectAdmin' | 'changeWorkspaceRole' | 'remove';

/**
 * A member's row actions (spec §6): 'Make Account admin' (organisation role account_admin),
 * 'Make Admin' (admin of the current workspace: project_admin there), 'Make Project Admin'
 * (project_admin in a workspace chosen next), change workspace role, and remove.
 */
export function MemberActions({
  member,
  canEdit,
  canDelete,
  hasWorkspace,
  onAction,
}: {
  member: Member;
  canEdit: boolean;
  canDelete: boolean;
  hasWorkspace: boolean;
  onAction: (action: MemberAction, member: Member) => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const name = personName(member);
  const allowed = canEdit || canDelete;
  const pick = (action: MemberAction) => {
    setAnchor(null);
    onAction(action, member);
  };
  const menuId = `member-actions-${member.userId}`;
  return (
    <>
      <NotAllowedTooltip allowed={allowed}>
        <IconButton
          aria-label={t('team.actionsFor', { name })}
          aria-haspopup="menu"
          aria-controls={anchor ? menuId : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          disabled={!allowed}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid="member-actions"
        >
          <MoreVert />
        </IconButton>
      </NotAllowedTooltip>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {canEdit && member.organisationRole === 'member' ? (
          <MenuItem onClick={() => pick('makeAccountAdmin')}>{t('team.actions.makeAccountAdmin')}</MenuItem>
        ) : null}
        {canEdit && hasWorkspace ? (
          <MenuItem onClick={() => pick('makeAdmin')}>{t('team.actions.makeAdmin')}</MenuItem>
        ) : null}
        {canEdit ? (
          <MenuItem onClick={() => pick('makeProjectAdmin')}>{t('team.actions.makeProjectAdmin')}</MenuItem>
        ) : null}
        {canEdit && member.organisationRole === 'account_admin' ? (
          <MenuItem onClick={() => pick('makeMember')}>{t('team.actions.makeMember')}</MenuItem>
        ) : null}
        {canEdit ? (
          <MenuItem onClick={() => pick('changeWorkspaceRole')}>
            {t('team.actions.changeWorkspaceRole')}
          </MenuItem>
        ) : null}
        {canDelete ? (
          <MenuItem onClick={() => pick('remove')} sx={{ color: 'error.main' }}>
            {t('team.actions.remove')}
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
}
