import { useTranslation } from 'react-i18next';
import type { Invite, Member } from '@slipway/contracts';
import { errorMessage } from '../../ui/api-error';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useRemoveMemberMutation, useRevokeInviteMutation } from './api';

export type TeamConfirmation =
  { kind: 'removeMember'; member: Member } | { kind: 'revokeInvite'; invite: Invite };

/** Asks before removing a member or revoking an invite; shows the server's refusal. */
export function TeamConfirmations({
  confirm,
  onClose,
}: {
  confirm: TeamConfirmation | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [remove, removal] = useRemoveMemberMutation();
  const [revoke, revocation] = useRevokeInviteMutation();
  const close = () => {
    removal.reset();
    revocation.reset();
    onClose();
  };

  if (confirm?.kind === 'removeMember') {
    const m = confirm.member;
    const name = `${m.firstName} ${m.lastName}`.trim() || m.email;
    return (
      <ConfirmDialog
        open
        title={t('team.confirmRemove.title', { name })}
        body={t('team.confirmRemove.body', { name })}
        confirmLabel={t('team.confirmRemove.confirm')}
        loading={removal.isLoading}
        error={removal.error ? errorMessage(removal.error) : null}
        onClose={close}
        onConfirm={async () => {
          if (!(await remove(m.userId)).error) close();
        }}
      />
    );
  }
  if (confirm?.kind === 'revokeInvite') {
    const inv = confirm.invite;
    return (
      <ConfirmDialog
        open
        title={t('team.confirmRevoke.title')}
        body={t('team.confirmRevoke.body', { email: inv.email })}
        confirmLabel={t('team.confirmRevoke.confirm')}
        loading={revocation.isLoading}
        error={revocation.error ? errorMessage(revocation.error) : null}
        onClose={close}
        onConfirm={async () => {
          if (!(await revoke(inv.id)).error) close();
        }}
      />
    );
  }
  return null;
}
