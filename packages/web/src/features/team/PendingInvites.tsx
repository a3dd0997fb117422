import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import type { Invite, Role, Workspace } from '@slipway/contracts';
import { AllowedActions } from '../access/AllowedButton';
import { roleLabel } from '../roles/api';

/** Invites not yet accepted, each with its role and expiry, and a revoke action. */
export function PendingInvites({
  invites,
  workspaces,
  roles,
  canRevoke,
  onRevoke,
}: {
  invites: Invite[];
  workspaces: Workspace[];
  roles: Role[] | undefined;
  canRevoke: boolean;
  onRevoke: (invite: Invite) => void;
}) {
  const { t, i18n } = useTranslation();
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language);
  return (
    <List dense aria-label={t('team.invitesTitle')}>
      {invites.map((inv) => {
        const ws = workspaces.find((w) => w.id === inv.workspaceId)?.name;
        const role = t(`team.orgRoles.${inv.organisationRole}`, { defaultValue: inv.organisationRole });
        const detail =
          ws && inv.workspaceRole ? `${role} · ${ws}: ${roleLabel(roles, inv.workspaceRole)}` : role;
        return (
          <ListItem
            key={inv.id}
            divider
            data-testid="invite-row"
            secondaryAction={
              <AllowedActions
                actions={[
                  {
                    allowed: canRevoke,
                    label: t('team.revokeInvite'),
                    name: t('team.revokeInviteFor', { email: inv.email }),
                    onClick: () => onRevoke(inv),
                    danger: true,
                  },
                ]}
              />
            }
          >
            <ListItemText
              primary={inv.email}
              secondary={`${detail} · ${t('team.expires', { date: date(inv.expiresAt) })}`}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
