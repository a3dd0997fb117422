import {
  BUILTIN_WORKSPACE_ROLES,
  emailSchema,
  MASKED_SECRET,
  MESSAGES,
  SSO_MESSAGES,
  type LoginResponse,
  type SsoSettingsRequest,
  type SsoSettingsResponse,
} from '@slipway/contracts';
import { InputError, NotAuthenticatedError } from '../../platform/errors.js';
import type { Keys } from '../../platform/keys.js';
import type { RequestContext } from '../../platform/request-context.js';
import { attemptKeys, PER_ACCOUNT, type Throttle } from '../auth/throttle.js';
import { mapGroupsToRoles } from './group-roles.js';
import {
  describeLdapError,
  type Directory,
  type DirectoryPerson,
  type LdapConnection,
} from './ldap-directory.js';
import {
  DEFAULT_TLS,
  type SsoStore,
  type SsoTls,
  type SsoUserRow,
  type StoredSsoSettings,
} from './sso-store.js';

/** A refused directory sign-in: 'Invalid credentials' to the caller, the reason for the audit trail. */
export class DirectorySignInError extends NotAuthenticatedError {
  constructor(readonly reason: string) {
    super(MESSAGES.invalidCredentials);
  }
}

/** What the SSO service needs of sign-in: a session in the given organisation. */
export interface SessionStarter {
  startSession(user: SsoUserRow, ctx: RequestContext, origin: 'ldap'): Promise<LoginResponse>;
}

const CONNECTION_FIELDS = ['url', 'bindDn', 'baseDn', 'userQuery', 'groupQuery', 'emailAttribute'] as const;
const TLS_FIELDS = ['startTls', 'skipTlsVerify', 'caCertificate'] as const;

function tlsOf(input: Partial<SsoTls>, base: SsoTls = DEFAULT_TLS): SsoTls {
  return {
    startTls: input.startTls ?? base.startTls,
    skipTlsVerify: input.skipTlsVerify ?? base.skipTlsVerify,
    caCertificate: input.caCertificate ?? base.caCertificate,
  };
}

/** StartTLS upgrades a plain connection: with ldaps:// it is a mistake worth naming. */
function assertTls(input: { url?: string | undefined; startTls?: boolean | undefined }) {
  if (input.startTls && input.url?.toLowerCase().startsWith('ldaps://')) {
    throw new InputError(SSO_MESSAGES.startTlsWithLdaps, [
      { path: 'body.startTls', message: SSO_MESSAGES.startTlsWithLdaps },
    ]);
  }
}

function view(s: StoredSsoSettings | null): SsoSettingsResponse {
  return {
    configured: s !== null,
    url: s?.url ?? '',
    bindDn: s?.bindDn ?? '',
    bindPassword: s ? MASKED_SECRET : '',
    hasBindPassword: Boolean(s?.bindPasswordEncrypted),
    baseDn: s?.baseDn ?? '',
    userQuery: s?.userQuery ?? '(uid={username})',
    groupQuery: s?.groupQuery ?? '(member={dn})',
    emailAttribute: s?.emailAttribute ?? 'mail',
    enabled: s?.enabled ?? false,
    groupRoles: s?.groupRoles ?? [],
    startTls: s?.tls.startTls ?? false,
    skipTlsVerify: s?.tls.skipTlsVerify ?? false,
    caCertificate: s?.tls.caCertificate ?? '',
    updatedAt: s?.updatedAt.toISOString() ?? null,
  };
}

function namesOf(person: DirectoryPerson, username: string): { firstName: string; lastName: string } {
  const [first, ...rest] = (person.commonName ?? '').split(/\s+/).filter(Boolean);
  return {
    firstName: person.givenName ?? first ?? username,
    lastName: person.surname ?? rest.join(' '),
  };
}

/** Enterprise single sign-on: the organisation's LDAP settings and signing in through them. */
export class SsoService {
  constructor(
    private readonly store: SsoStore,
    private readonly directory: Directory,
    private readonly keys: Keys,
    private readonly throttle: Pick<Throttle, 'before' | 'succeeded' | 'failed'>,
    private readonly sessions: SessionStarter,
  ) {}

  async settings(organisationId: string): Promise<SsoSettingsResponse> {
    return view(await this.store.settings(organisationId));
  }

  async hasSettings(organisationId: string): Promise<boolean> {
    return (await this.store.settings(organisationId)) !== null;
  }

  async save(organisationId: string, input: SsoSettingsRequest): Promise<SsoSettingsResponse> {
    const previous = await this.store.settings(organisationId);
    const newPassword =
      input.bindPassword && input.bindPassword !== MASKED_SECRET ? input.bindPassword : undefined;
    if (!previous && !newPassword) {
      throw new InputError(SSO_MESSAGES.bindPasswordRequired, [
        { path: 'body.bindPassword', message: SSO_MESSAGES.bindPasswordRequired },
      ]);
    }
    await this.checkMappings(organisationId, input);
    assertTls(input);
    const saved = await this.store.saveSettings({
      organisationId,
      enabled: input.enabled,
      url: input.url,
      bindDn: input.bindDn,
      bindPasswordEncrypted: newPassword ? this.keys.encrypt(newPassword) : previous!.bindPasswordEncrypted,
      baseDn: input.baseDn,
      userQuery: input.userQuery,
      groupQuery: input.groupQuery,
      emailAttribute: input.emailAttribute,
      groupRoles: input.groupRoles,
      tls: tlsOf(input),
    });
    const changed =
      previous !== null &&
      (CONNECTION_FIELDS.some((f) => previous[f] !== saved[f]) ||
        TLS_FIELDS.some((f) => previous.tls[f] !== saved.tls[f]) ||
        (newPassword !== undefined && this.keys.decrypt(previous.bindPasswordEncrypted) !== newPassword));
    return changed
      ? { ...view(saved), needsRetest: true, message: MESSAGES.fieldsModifiedRetest }
      : view(saved);
  }

  private async checkMappings(organisationId: string, input: SsoSettingsRequest) {
    if (!input.groupRoles.some((g) => g.workspaceId)) return;
    const [workspaceIds, customRoles] = await Promise.all([
      this.store.workspaceIds(organisationId),
      this.store.customRoleIds(organisationId),
    ]);
    const details: Array<{ path: string; message: string }> = [];
    input.groupRoles.forEach((g, i) => {
      if (g.workspaceId && !workspaceIds.includes(g.workspaceId)) {
        details.push({
          path: `body.groupRoles.${i}.workspaceId`,
          message: 'No such workspace in this organisation',
        });
      }
      const role = g.workspaceRole;
      if (
        role &&
        !(BUILTIN_WORKSPACE_ROLES as readonly string[]).includes(role) &&
        !customRoles.includes(role)
      ) {
        details.push({
          path: `body.groupRoles.${i}.workspaceRole`,
          message: 'No such role in this organisation',
        });
      }
    });
    if (details.length) throw new InputError(`${details[0]!.path}: ${details[0]!.message}`, details);
  }

  /** Binds with the saved settings, or with the given ones over them; answers the server's words. */
  async test(
    organisationId: string,
    given?: Partial<SsoSettingsRequest>,
  ): Promise<{ ok: boolean; message: string }> {
    const saved = await this.store.settings(organisationId);
    const password =
      given?.bindPassword && given.bindPassword !== MASKED_SECRET
        ? given.bindPassword
        : saved
          ? this.keys.decrypt(saved.bindPasswordEncrypted)
          : undefined;
    const url = given?.url ?? saved?.url;
    const bindDn = given?.bindDn ?? saved?.bindDn;
    const baseDn = given?.baseDn ?? saved?.baseDn;
    if (!url || !bindDn || !baseDn || password === undefined) {
      return { ok: false, message: 'Save the settings (URL, bind DN, bind password and base DN) first' };
    }
    const tls = tlsOf(given ?? {}, saved?.tls);
    assertTls({ url, startTls: tls.startTls });
    try {
      const conn = { ...this.connectionOf(saved), url, bindDn, baseDn, bindPassword: password, tls };
      await this.directory.test(conn);
      return { ok: true, message: `Connected to ${url} and read ${baseDn}` };
    } catch (err) {
      return { ok: false, message: (err as Error).message || String(err) };
    }
  }

  private connectionOf(s: StoredSsoSettings | null): LdapConnection {
    return {
      url: s?.url ?? '',
      bindDn: s?.bindDn ?? '',
      bindPassword: s ? this.keys.decrypt(s.bindPasswordEncrypted) : '',
      baseDn: s?.baseDn ?? '',
      userQuery: s?.userQuery ?? '(uid={username})',
      groupQuery: s?.groupQuery ?? '(member={dn})',
      emailAttribute: s?.emailAttribute ?? 'mail',
      tls: s?.tls ?? DEFAULT_TLS,
    };
  }

  /**
   * Signs a person in through the organisation's directory, creating them (verified, without a
   * password) on first sign-in, and keeping their roles in step with their directory groups.
   * A person who already has a Slipway account elsewhere must first be a member here.
   */
  async ldapLogin(
    organisationId: string,
    username: string,
    password: string,
    ctx: RequestContext,
  ): Promise<LoginResponse & { userId: string }> {
    const keys = attemptKeys('ldap', ctx.ip ?? 'unknown', `${organisationId}:${username.toLowerCase()}`);
    await this.throttle.before(keys);
    try {
      const result = await this.signIn(organisationId, username, password, ctx);
      await this.throttle.succeeded(keys);
      return result;
    } catch (err) {
      await this.throttle.failed(keys, PER_ACCOUNT);
      if (err instanceof DirectorySignInError) throw err;
      throw new DirectorySignInError(`directory error: ${describeLdapError(err)}`);
    }
  }

  private async signIn(organisationId: string, username: string, password: string, ctx: RequestContext) {
    const settings = await this.store.settings(organisationId);
    if (!settings?.enabled) throw new DirectorySignInError('single sign-on is not enabled');
    const person = await this.directory.authenticate(this.connectionOf(settings), username, password);
    if (!person) throw new DirectorySignInError('unknown user or wrong password');
    const email = emailSchema.safeParse(person.email ?? '');
    if (!email.success)
      throw new DirectorySignInError(`no valid ${settings.emailAttribute} in the directory`);
    const roles = mapGroupsToRoles(person.groups, settings.groupRoles);

    let user = await this.store.userByEmail(email.data);
    if (!user) {
      user = await this.store.createDirectoryUser({
        email: email.data,
        ...namesOf(person, username),
        organisationId,
        organisationRole: roles.organisationRole,
      });
    } else {
      const current = await this.store.organisationRole(user.id, organisationId);
      if (!current)
        throw new DirectorySignInError('this e-mail belongs to a person who is not a member here');
      if (current !== 'master_admin' && current !== roles.organisationRole) {
        await this.store.setOrganisationRole(user.id, organisationId, roles.organisationRole);
      }
    }
    for (const [workspaceId, role] of roles.workspaces)
      await this.store.setWorkspaceRole(user.id, workspaceId, role);
    // The session belongs to the organisation whose directory vouched for the person: it is marked
    // as an LDAP session, which an account switch refuses to carry elsewhere.
    const login = await this.sessions.startSession(
      { ...user, currentOrganisationId: organisationId },
      ctx,
      'ldap',
    );
    return { ...login, userId: user.id };
  }
}
