import type { SsoGroupRole } from '@slipway/contracts';
import { normaliseDn } from './ldap-filter.js';

export interface DirectoryGroup {
  dn: string;
  cn: string | null;
}

export interface MappedRoles {
  organisationRole: 'account_admin' | 'member';
  /** workspace id → role; the first mapping naming a workspace wins */
  workspaces: Map<string, string>;
  /** the mappings that matched, for the audit detail */
  matched: string[];
}

function matches(mapping: SsoGroupRole, group: DirectoryGroup): boolean {
  const wanted = mapping.group.trim();
  if (wanted.includes('=')) return normaliseDn(wanted) === normaliseDn(group.dn);
  return group.cn !== null && group.cn.toLowerCase() === wanted.toLowerCase();
}

/**
 * Directory groups → Slipway roles. A mapping names a group by cn or DN. Anyone matched by the
 * user query is at least a member; any matching mapping to account_admin makes an account admin.
 */
export function mapGroupsToRoles(groups: DirectoryGroup[], mappings: SsoGroupRole[]): MappedRoles {
  const result: MappedRoles = { organisationRole: 'member', workspaces: new Map(), matched: [] };
  for (const mapping of mappings) {
    if (!groups.some((g) => matches(mapping, g))) continue;
    result.matched.push(mapping.group);
    if (mapping.organisationRole === 'account_admin') result.organisationRole = 'account_admin';
    if (mapping.workspaceId && mapping.workspaceRole && !result.workspaces.has(mapping.workspaceId)) {
      result.workspaces.set(mapping.workspaceId, mapping.workspaceRole);
    }
  }
  return result;
}
