import { randomUUID } from 'node:crypto';
import {
  LDAP_SESSION_SWITCH_MESSAGE,
  type LoginResponse,
  type Organisation,
  type OrganisationRole,
  type OrganisationUpdateRequest,
  type Workspace,
} from '@slipway/contracts';
import type { Principal } from '../../platform/auth/principal.js';
import type { SessionOrigin } from '../../platform/auth/tokens.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { ConflictError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/request-context.js';
import type { AuthService } from '../auth/auth-service.js';
import type { AuthStore } from '../auth/auth-store.js';
import type { OrganisationsStore } from './organisations-store-type.js';

const WORKSPACE_NAME_TAKEN = 'A workspace with this name already exists';

/** Organisations a person belongs to, the account switch, and the workspaces of an organisation. */
export class OrganisationsService {
  constructor(
    private readonly store: OrganisationsStore,
    private readonly people: Pick<
      AuthStore,
      'organisationsOf' | 'userById' | 'setCurrentOrganisation' | 'revokeSession' | 'visibleWorkspaces'
    >,
    private readonly auth: Pick<AuthService, 'startSession'>,
  ) {}

  async list(userId: string, currentOrganisationId: string): Promise<Organisation[]> {
    const rows = await this.people.organisationsOf(userId);
    return rows.map((o) => ({
      id: o.id,
      name: o.name,
      role: o.role as OrganisationRole,
      current: o.id === currentOrganisationId,
      maxRunMinutes: o.maxRunMinutes,
    }));
  }

  /**
   * Account switch: the current session ends and a new one starts in the chosen organisation. A
   * session from LDAP sign-in belongs to the organisation whose directory vouched for the person,
   * so it is refused (and stays as it is).
   */
  async switchTo(
    person: { userId: string; sessionId: string; organisationId: string; origin: SessionOrigin },
    organisationId: string,
    ctx: RequestContext,
  ): Promise<LoginResponse> {
    const mine = await this.people.organisationsOf(person.userId);
    if (!mine.some((o) => o.id === organisationId)) throw new NotFoundError('Organisation not found');
    if (person.origin === 'ldap' && organisationId !== person.organisationId) {
      throw new NotAllowedError(LDAP_SESSION_SWITCH_MESSAGE);
    }
    const user = await this.people.userById(person.userId);
    if (!user) throw new NotFoundError('User not found');
    await this.people.setCurrentOrganisation(user.id, organisationId);
    await this.people.revokeSession(person.sessionId);
    return this.auth.startSession({ ...user, currentOrganisationId: organisationId }, ctx, person.origin);
  }

  /**
   * Renames the caller's current organisation and/or sets its cap on a run's duration
   * (`maxRunMinutes`, null for none): runs that start from now on get it.
   */
  async update(
    person: { userId: string; organisationId: string },
    id: string,
    change: OrganisationUpdateRequest,
  ): Promise<Organisation> {
    // The permission was checked in the caller's current organisation: other ids are not found.
    if (id !== person.organisationId) throw new NotFoundError('Organisation not found');
    await this.store.update(id, {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.maxRunMinutes !== undefined ? { maxRunMinutes: change.maxRunMinutes } : {}),
    });
    const mine = await this.list(person.userId, person.organisationId);
    const updated = mine.find((o) => o.id === id);
    if (!updated) throw new NotFoundError('Organisation not found');
    return updated;
  }

  async workspaces(principal: Principal): Promise<Workspace[]> {
    if (principal.kind === 'user')
      return this.people.visibleWorkspaces(principal.userId, principal.organisationId);
    return this.store.serviceAccountWorkspaces(principal.serviceAccountId);
  }

  async createWorkspace(organisationId: string, name: string): Promise<Workspace> {
    if (await this.store.workspaceNameTaken(organisationId, name))
      throw new ConflictError(WORKSPACE_NAME_TAKEN);
    const id = randomUUID();
    try {
      await this.store.createWorkspace({ id, organisationId, name });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(WORKSPACE_NAME_TAKEN);
      throw err;
    }
    return { id, name, organisationId, role: 'admin' };
  }

  async renameWorkspace(organisationId: string, id: string, name: string): Promise<Workspace> {
    const ws = await this.store.workspace(organisationId, id);
    if (!ws) throw new NotFoundError('Workspace not found');
    if (await this.store.workspaceNameTaken(organisationId, name, id))
      throw new ConflictError(WORKSPACE_NAME_TAKEN);
    try {
      await this.store.renameWorkspace(id, name);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(WORKSPACE_NAME_TAKEN);
      throw err;
    }
    return { id, name, organisationId, role: 'admin' };
  }

  async deleteWorkspace(organisationId: string, id: string) {
    if (!(await this.store.workspace(organisationId, id))) throw new NotFoundError('Workspace not found');
    if (!(await this.store.deleteWorkspaceUnlessLast(organisationId, id))) {
      throw new ConflictError('An organisation must keep at least one workspace');
    }
  }
}
