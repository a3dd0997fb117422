import { randomUUID } from 'node:crypto';
import {
  MESSAGES,
  SERVICE_ACCOUNT_MAX_LIFETIME_DAYS,
  type ServiceAccount,
  type ServiceAccountCreateRequest,
} from '@slipway/contracts';
import { SERVICE_ACCOUNT_TOKEN_PREFIX } from '../../platform/auth/tokens.js';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { hashToken, randomToken } from '../../platform/keys.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { assertWorkspaceRole } from '../roles/role-names.js';
import type { RoleLookup } from '../roles/roles-store.js';
import type { ServiceAccountRow, WorkspaceRole } from './service-accounts-store.js';
import type { ServiceAccountsStore } from './service-accounts-store-type.js';

/** How many leading characters of a token are kept to tell tokens apart in lists. */
export const TOKEN_PREFIX_LENGTH = 12;
const DAY_MS = 86_400_000;
const NAME_TAKEN = 'A service account with this name already exists';

/** The expiry must be in the future and at most a year away. */
export function checkExpiry(value: string, now = Date.now()): Date {
  const at = new Date(value);
  const fail = (message: string) => new InputError(message, [{ path: 'body.expiresAt', message }]);
  if (Number.isNaN(at.getTime())) throw fail(MESSAGES.invalidDate);
  if (at.getTime() <= now) throw fail('The expiry date must be in the future');
  if (at.getTime() > now + SERVICE_ACCOUNT_MAX_LIFETIME_DAYS * DAY_MS) {
    throw fail('The expiry date must be at most one year away');
  }
  return at;
}

/** Service accounts: a role per workspace and an expiry; the token is shown once and kept as a hash. */
export class ServiceAccountsService {
  constructor(
    private readonly store: ServiceAccountsStore,
    private readonly roles: RoleLookup,
  ) {}

  async create(creator: { id: string; organisationId: string }, input: ServiceAccountCreateRequest) {
    const organisationId = creator.organisationId;
    const expiresAt = checkExpiry(input.expiresAt);
    await this.checkWorkspaces(organisationId, input.workspaces);
    if (await this.store.nameTaken(organisationId, input.name)) throw new ConflictError(NAME_TAKEN);
    const id = randomUUID();
    const token = SERVICE_ACCOUNT_TOKEN_PREFIX + randomToken();
    const tokenPrefix = token.slice(0, TOKEN_PREFIX_LENGTH);
    try {
      await this.store.create(
        {
          id,
          organisationId,
          name: input.name,
          tokenPrefix,
          tokenHash: hashToken(token),
          createdBy: creator.id,
          expiresAt,
        },
        input.workspaces,
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(NAME_TAKEN);
      throw err;
    }
    return { id, name: input.name, token, tokenPrefix, expiresAt: expiresAt.toISOString() };
  }

  async list(organisationId: string): Promise<ServiceAccount[]> {
    const rows = await this.store.list(organisationId);
    const grants = await this.store.workspacesOf(rows.map((r) => r.id));
    return rows.map((r) => this.view(r, grants));
  }

  async revoke(organisationId: string, id: string) {
    const sa = await this.store.get(organisationId, id);
    if (!sa) throw new NotFoundError('Service account not found');
    if (!sa.revokedAt) await this.store.revoke(id);
  }

  async setWorkspaces(
    organisationId: string,
    id: string,
    workspaces: WorkspaceRole[],
  ): Promise<ServiceAccount> {
    const sa = await this.store.get(organisationId, id);
    if (!sa) throw new NotFoundError('Service account not found');
    if (sa.revokedAt) throw new ConflictError('This service account was revoked');
    await this.checkWorkspaces(organisationId, workspaces);
    await this.store.replaceWorkspaces(id, workspaces);
    return this.view(sa, await this.store.workspacesOf([id]));
  }

  private async checkWorkspaces(organisationId: string, workspaces: WorkspaceRole[]) {
    const known = await this.store.workspacesInOrganisation(
      organisationId,
      workspaces.map((w) => w.workspaceId),
    );
    for (const [i, w] of workspaces.entries()) {
      if (!known.has(w.workspaceId)) throw new NotFoundError('Workspace not found');
      await assertWorkspaceRole(this.roles, organisationId, w.role, `body.workspaces.${i}.role`);
    }
  }

  private view(
    r: ServiceAccountRow,
    grants: Array<WorkspaceRole & { serviceAccountId: string }>,
  ): ServiceAccount {
    return {
      id: r.id,
      name: r.name,
      tokenPrefix: r.tokenPrefix,
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      revokedAt: r.revokedAt?.toISOString() ?? null,
      workspaces: grants
        .filter((g) => g.serviceAccountId === r.id)
        .map((g) => ({ workspaceId: g.workspaceId, role: g.role })),
    };
  }
}
