import { useState } from 'react';
import type { Member } from '@slipway/contracts';
import type { ApiError } from '../../ui/api-error';
import { useSetOrganisationRoleMutation, useSetWorkspaceRoleMutation } from './api';
import type { MemberAction } from './MemberActions';

/**
 * The one-click role changes of a member's row. The server's refusal (such as 'An organisation
 * must keep at least one admin') is kept to show on the page.
 */
export function useMemberRoleChange() {
  const [setOrganisationRole] = useSetOrganisationRoleMutation();
  const [setWorkspaceRole] = useSetWorkspaceRoleMutation();
  const [error, setError] = useState<ApiError>(undefined);

  async function run(action: MemberAction, member: Member, workspaceId: string | null) {
    setError(undefined);
    let answer: { error?: ApiError } | undefined;
    if (action === 'makeAccountAdmin')
      answer = await setOrganisationRole({ userId: member.userId, organisationRole: 'account_admin' });
    else if (action === 'makeMember')
      answer = await setOrganisationRole({ userId: member.userId, organisationRole: 'member' });
    else if (action === 'makeAdmin' && workspaceId)
      answer = await setWorkspaceRole({ userId: member.userId, workspaceId, role: 'project_admin' });
    if (answer?.error) setError(answer.error);
  }

  return { run, error };
}
