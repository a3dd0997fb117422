import { useTranslation } from 'react-i18next';
import type { Invite, Member } from '@slipway/contracts';
import { useConfirmDelete } from '../../ui/useConfirmDelete';
import { useRemoveMemberMutation, useRevokeInviteMutation } from './api';
import { personName } from './person-columns';

/**
 * Asks before removing a member from the organisation or revoking an invite, and shows the
 * server's refusal; `ask` each, render both `dialog`s.
 */
export function useTeamConfirmations() {
  const { t } = useTranslation();
  const removal = useConfirmDelete(useRemoveMemberMutation(), (m: Member & { id: string }) => ({
    title: t('team.confirmRemove.title', { name: personName(m) }),
    body: t('team.confirmRemove.body', { name: personName(m) }),
    confirmLabel: t('team.confirmRemove.confirm'),
  }));
  const revocation = useConfirmDelete(useRevokeInviteMutation(), (inv: Invite) => ({
    title: t('team.confirmRevoke.title'),
    body: t('team.confirmRevoke.body', { email: inv.email }),
    confirmLabel: t('team.confirmRevoke.confirm'),
  }));
  return { removal, revocation };
}
