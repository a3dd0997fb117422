import { randomUUID } from 'node:crypto';
import {
  INVITE_INVALID_MESSAGE,
  INVITE_TTL_MS,
  MESSAGES,
  passwordSchema,
  type Invite,
  type InviteAcceptRequest,
  type InviteCreateRequest,
  type LoginResponse,
} from '@slipway/contracts';
import type { Principal } from '../../platform/auth/principal.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { ConflictError, InputError, NotAuthenticatedError, NotFoundError } from '../../platform/errors.js';
import { hashToken, randomToken } from '../../platform/keys.js';
import type { Mailer } from '../../platform/mail.js';
import type { RequestContext } from '../../platform/request-context.js';
import type { AuthService } from '../auth/auth-service.js';
import type { AuthStore } from '../auth/auth-store.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { PER_ACCOUNT, PER_IP, type Throttle } from '../auth/throttle.js';
import { assertWorkspaceRole } from '../roles/role-names.js';
import type { RoleLookup } from '../roles/roles-store.js';
import type { InviteRow } from './invites-store.js';
import type { InvitesStore } from './invites-store-type.js';
import type { MembersStore } from './members-store-type.js';

function toInvite(r: InviteRow): Invite {
  return {
    id: r.id,
    email: r.email,
    organisationRole: r.organisationRole,
    workspaceId: r.workspaceId,
    workspaceRole: r.workspaceRole,
    invitedBy: r.invitedBy,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  };
}

const invalid = () => new NotFoundError(INVITE_INVALID_MESSAGE);

function required(field: string, message: string) {
  return new InputError(message, [{ path: `body.${field}`, message }]);
}

/** Invite by e-mail with a single-use, expiring link; accept as a new or an existing person. */
export class InvitesService {
  constructor(
    private readonly store: InvitesStore,
    private readonly members: MembersStore,
    private readonly roles: RoleLookup,
    private readonly people: Pick<AuthStore, 'userByEmail'>,
    private readonly auth: Pick<AuthService, 'startSession'>,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly throttle: Pick<Throttle, 'check' | 'fail' | 'succeed'>,
  ) {}

  async create(
    inviter: { userId: string; organisationId: string },
    input: InviteCreateRequest,
  ): Promise<Invite> {
    const organisationId = inviter.organisationId;
    if (input.workspaceRole && !input.workspaceId) {
      throw new InputError('Choose the workspace the role is for', [
        { path: 'body.workspaceId', message: 'Choose the workspace the role is for' },
      ]);
    }
    const workspaceRole = input.workspaceId ? (input.workspaceRole ?? 'developer') : null;
    if (input.workspaceId) {
      if (!(await this.members.workspaceInOrganisation(organisationId, input.workspaceId))) {
        throw new NotFoundError('Workspace not found');
      }
      await assertWorkspaceRole(this.roles, organisationId, workspaceRole!, 'body.workspaceRole');
    }
    if (await this.store.isMember(organisationId, input.email)) {
      throw new ConflictError('This person is already a member of the organisation');
    }
    const token = randomToken();
    const row = {
      id: randomUUID(),
      organisationId,
      workspaceId: input.workspaceId ?? null,
      email: input.email,
      organisationRole: input.organisationRole,
      workspaceRole,
      tokenHash: hashToken(token),
      invitedBy: inviter.userId,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + INVITE_TTL_MS),
    };
    await this.store.create(row);
    const organisationName = (await this.store.organisationName(organisationId)) ?? 'an organisation';
    await this.mailer.send({
      to: input.email,
      subject: `You are invited to ${organisationName} on Slipway`,
      text:
        `Hello,\n\nYou have been invited to join ${organisationName} on Slipway. Open this link to accept ` +
        `(valid for ${INVITE_TTL_MS / 86_400_000} days, once):\n\n` +
        `${this.publicUrl}/set-password?invite=${encodeURIComponent(token)}\n\n` +
        'If you did not expect this, ignore this mail.\n',
    });
    return toInvite({ ...row, acceptedAt: null, revokedAt: null });
  }

  async list(organisationId: string): Promise<Invite[]> {
    return (await this.store.listPending(organisationId)).map(toInvite);
  }

  async revoke(organisationId: string, id: string) {
    if (!(await this.store.revoke(organisationId, id))) throw new NotFoundError('Invite not found');
  }

  async lookup(token: string) {
    const invite = await this.store.findPending(hashToken(token));
    if (!invite) throw invalid();
    return {
      email: invite.email,
      organisationName: (await this.store.organisationName(invite.organisationId)) ?? '',
      existingUser: (await this.people.userByEmail(invite.email)) !== null,
    };
  }

  /**
   * A new person chooses their name and password; an existing one proves who they are with a
   * session of the same address or their password. Answers a session in the inviting organisation.
   */
  async accept(
    input: InviteAcceptRequest,
    caller: Principal | null,
    ctx: RequestContext,
  ): Promise<{ session: LoginResponse; invite: InviteRow }> {
    const tokenHash = hashToken(input.token);
    const found = await this.store.findPending(tokenHash);
    if (!found) throw invalid();
    const existing = await this.people.userByEmail(found.email);
    let invite: InviteRow | null;
    if (existing) {
      const signedInAsThem = caller?.kind === 'user' && caller.email === existing.email;
      if (!signedInAsThem) {
        if (!input.password)
          throw new NotAuthenticatedError('Sign in or give your password to accept this invite');
        // The same growing delays as sign-in: an invite link must not become a password oracle.
        const keys = [`login:acct:${existing.email}`, `login:ip:${ctx.ip}`];
        await this.throttle.check(keys);
        if (!(await verifyPassword(existing.passwordHash, input.password))) {
          await this.throttle.fail([
            [keys[0]!, PER_ACCOUNT],
            [keys[1]!, PER_IP],
          ]);
          throw new NotAuthenticatedError(MESSAGES.invalidCredentials);
        }
        await this.throttle.succeed([keys[0]!]);
      }
      invite = await this.store.accept(tokenHash, { userId: existing.id });
    } else {
      if (!input.firstName) throw required('firstName', MESSAGES.nameRequired);
      if (!input.lastName) throw required('lastName', MESSAGES.nameRequired);
      const password = passwordSchema.safeParse(input.password);
      if (!password.success)
        throw required('password', password.error.issues[0]?.message ?? MESSAGES.passwordRequired);
      const person = {
        id: randomUUID(),
        email: found.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash: await hashPassword(password.data),
      };
      try {
        invite = await this.store.accept(tokenHash, { create: person });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new ConflictError('An account with this email already exists; sign in instead');
        throw err;
      }
    }
    if (!invite) throw invalid();
    const user = await this.people.userByEmail(invite.email);
    if (!user) throw invalid();
    return { session: await this.auth.startSession(user, ctx), invite };
  }
}
