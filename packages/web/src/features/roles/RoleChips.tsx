import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { Role } from '@slipway/contracts';
import { roleLabel } from './api';

/** A role held in a workspace. */
export interface WorkspaceRoleGrant {
  workspaceId: string;
  role: string;
}

/**
 * Where someone holds a role, one small outlined chip each ("Production: Developer"), wrapping;
 * `workspaceName` names a grant's workspace, and the role's name comes from `roles`.
 */
export function RoleChips<G extends WorkspaceRoleGrant>({
  grants,
  roles,
  workspaceName,
}: {
  grants: readonly G[];
  roles: readonly Role[] | undefined;
  workspaceName: (grant: G) => string;
}) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {grants.map((g) => (
        <Chip
          key={g.workspaceId}
          size="small"
          variant="outlined"
          label={`${workspaceName(g)}: ${roleLabel(roles, g.role)}`}
        />
      ))}
    </Stack>
  );
}
