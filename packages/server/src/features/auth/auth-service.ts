import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  MESSAGES,
  PASSWORD_RESET_TTL_MS,
  SESSION_TTL_MS,
  VERIFICATION,
  type LoginResponse,
  type ProfileResponse,
  type SignupRequest,
} from '@slipway/contracts';
import type { SessionOrigin, SessionTokens } from '../../platform/auth/tokens.js';
import {
  AppError,
  ConflictError,
  InputError,
  NotAuthenticatedError,
  NotFoundError,
  TooManyRequestsError,
} from '../../platform/errors.js';
import { hashToken, randomToken } from '../../platform/keys.js';
import type { Mailer } from '../../platform/mail.js';
import type { RequestContext } from '../../platform/request-context.js';
import type { AuthStore, UserRow } from './auth-store.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { attemptKeys, PER_ACCOUNT, PER_ACCOUNT_VERIFY, PER_IP, type Throttle } from './throttle.js';

export class EmailNotVerifiedError extends AppError {
  constructor() {
    super(403, 'Email not verified');
  }
}

const SIGNUP = 'signup';

function codeHash(userId: string, code: string): string {
  return createHash('sha256').update(`${userId}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Sign-up with an e-mailed code, sign-in, sessions, password reset and the profile. */
export class AuthService {
  constructor(
    private readonly store: AuthStore,
    private readonly tokens: SessionTokens,
    private readonly mailer: Mailer,
    private readonly throttle: Throttle,
    private readonly publicUrl: string,
  ) {}

  async signup(input: SignupRequest): Promise<{ email: string; resendAfterSeconds: number }> {
    const existing = await this.store.userByEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    let userId: string;
    if (existing?.emailVerifiedAt) {
      throw new ConflictError('An account with this email already exists; sign in instead');
    } else if (existing) {
      userId = existing.id;
      await this.store.updateUnverifiedUser(userId, {
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
      });
    } else {
      userId = randomUUID();
      await this.store.createUserWithOrganisation({
        userId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        emailVerified: false,
        organisationId: randomUUID(),
        organisationName: input.organisationName ?? `${input.firstName}'s organisation`,
        workspaceId: randomUUID(),
      });
    }
    await this.sendCode(userId, input.email, input.firstName);
    return { email: input.email, resendAfterSeconds: VERIFICATION.resendAfterSeconds };
  }

  /** Another code, once the countdown has run out. The same answer for unknown addresses. */
  async resendCode(email: string): Promise<{ email: string; resendAfterSeconds: number }> {
    const user = await this.store.userByEmail(email);
    if (user && !user.emailVerifiedAt) {
      const last = await this.store.latestCode(user.id, SIGNUP);
      const wait = last ? last.createdAt.getTime() + VERIFICATION.resendAfterSeconds * 1000 - Date.now() : 0;
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        throw new TooManyRequestsError(`You can ask for another code in ${seconds} seconds`, seconds);
      }
      await this.sendCode(user.id, user.email, user.firstName);
    }
    return { email, resendAfterSeconds: VERIFICATION.resendAfterSeconds };
  }

  private async sendCode(userId: string, email: string, firstName: string) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.store.replaceCode({
      id: randomUUID(),
      userId,
      purpose: SIGNUP,
      codeHash: codeHash(userId, code),
      expiresAt: new Date(Date.now() + VERIFICATION.codeTtlMs),
    });
    await this.mailer.send({
      to: email,
      subject: `Your Slipway verification code: ${code}`,
      text:
        `Hello ${firstName},\n\nYour verification code is ${code}. It is valid for ` +
        `${VERIFICATION.codeTtlMs / 60_000} minutes.\n\nIf you did not sign up for Slipway, ignore this mail.\n`,
    });
  }

  async verifyCode(email: string, code: string, ctx: RequestContext): Promise<LoginResponse> {
    const keys = attemptKeys('verify', ctx.ip ?? 'unknown', email.toLowerCase());
    await this.throttle.before(keys);
    const user = await this.store.userByEmail(email);
    const current = user ? await this.store.latestCode(user.id, SIGNUP) : null;
    const wrong = async () => {
      await this.throttle.failed(keys, PER_ACCOUNT_VERIFY);
      return new InputError(MESSAGES.invalidOtp, [{ path: 'code', message: MESSAGES.invalidOtp }]);
    };
    if (!user || !current || current.consumedAt || current.expiresAt.getTime() <= Date.now())
      throw await wrong();
    if (current.attempts >= VERIFICATION.maxAttempts) {
      throw new InputError('Too many wrong codes; ask for a new code', [
        { path: 'code', message: 'Too many wrong codes; ask for a new code' },
      ]);
    }
    if (!sameHash(current.codeHash, codeHash(user.id, code))) {
      await this.store.countWrongCode(current.id);
      throw await wrong();
    }
    if (!(await this.store.consumeCode(current.id))) throw await wrong();
    await this.store.markVerified(user.id);
    await this.throttle.succeeded(keys);
    return this.startSession(user, ctx);
  }

  async login(email: string, password: string, ctx: RequestContext): Promise<LoginResponse> {
    // Refused only for this address's own failures; other addresses' failures on the account
    // slow the attempt down but never lock the person out.
    const keys = attemptKeys('login', ctx.ip ?? 'unknown', email.toLowerCase());
    await this.throttle.before(keys);
    const user = await this.store.userByEmail(email);
    const ok = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !ok) {
      await this.throttle.failed(keys, PER_ACCOUNT);
      throw new NotAuthenticatedError(MESSAGES.invalidCredentials);
    }
    await this.throttle.succeeded(keys);
    if (!user.emailVerifiedAt) throw new EmailNotVerifiedError();
    return this.startSession(user, ctx);
  }

  /**
   * A session in the person's current organisation, and the workspace to start in. `origin` says
   * how they proved who they are ('ldap': the organisation's directory, which ties the session to
   * that organisation).
   */
  async startSession(
    user: UserRow,
    ctx: RequestContext,
    origin: SessionOrigin = 'password',
  ): Promise<LoginResponse> {
    const organisations = await this.store.organisationsOf(user.id);
    const organisationId =
      organisations.find((o) => o.id === user.currentOrganisationId)?.id ?? organisations[0]?.id;
    if (!organisationId) throw new NotAuthenticatedError('You are not a member of any organisation');
    const sessionId = randomUUID();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await this.store.createSession({
      id: sessionId,
      userId: user.id,
      organisationId,
      fingerprint: ctx.fingerprint,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      expiresAt,
    });
    const workspaces = await this.store.visibleWorkspaces(user.id, organisationId);
    return {
      token: await this.tokens.sign(sessionId, user.id, expiresAt, origin),
      projectId: workspaces[0]?.id ?? null,
    };
  }

  async logout(sessionId: string) {
    await this.store.revokeSession(sessionId);
  }

  /** Always answers 'Check your email', whether or not the address has an account. */
  async forgotPassword(email: string, ctx: RequestContext): Promise<{ message: string }> {
    const key = `forgot:ip:${ctx.ip}`;
    await this.throttle.check([key]);
    await this.throttle.fail([[key, PER_IP]]);
    const user = await this.store.userByEmail(email);
    if (user) {
      const token = randomToken();
      await this.store.createReset(hashToken(token), user.id, new Date(Date.now() + PASSWORD_RESET_TTL_MS));
      await this.mailer.send({
        to: user.email,
        subject: 'Reset your Slipway password',
        text:
          `Hello ${user.firstName},\n\nOpen this link to choose a new password (valid for ` +
          `${PASSWORD_RESET_TTL_MS / 60_000} minutes, once):\n\n${this.publicUrl}/reset-password?token=${token}\n\n` +
          'If you did not ask for this, ignore this mail: your password stays as it is.\n',
      });
    }
    return { message: MESSAGES.checkYourEmail };
  }

  async resetPassword(token: string, password: string, ctx: RequestContext): Promise<{ message: string }> {
    const key = `reset:ip:${ctx.ip}`;
    await this.throttle.check([key]);
    const userId = await this.store.useReset(hashToken(token));
    if (!userId) {
      await this.throttle.fail([[key, PER_IP]]);
      throw new InputError('This reset link is invalid or has expired', [
        { path: 'token', message: 'This reset link is invalid or has expired' },
      ]);
    }
    await this.store.setPassword(userId, await hashPassword(password));
    await this.store.markVerified(userId);
    await this.store.revokeSessionsOf(userId);
    return { message: 'Your password has been changed; sign in with it' };
  }

  async changePassword(userId: string, sessionId: string, current: string, next: string) {
    const user = await this.store.userById(userId);
    if (!user || !(await verifyPassword(user.passwordHash, current))) {
      throw new InputError('Current password is incorrect', [
        { path: 'currentPassword', message: 'Current password is incorrect' },
      ]);
    }
    await this.store.setPassword(userId, await hashPassword(next));
    await this.store.revokeSessionsOf(userId, sessionId);
  }

  async profile(userId: string, organisationId: string): Promise<ProfileResponse> {
    const user = await this.store.userById(userId);
    if (!user) throw new NotFoundError('User not found');
    return {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      organisationId,
      organisations: (await this.store.organisationsOf(userId)).map((o) => ({
        id: o.id,
        name: o.name,
        role: o.role as ProfileResponse['organisations'][number]['role'],
      })),
      workspaces: await this.store.visibleWorkspaces(userId, organisationId),
    };
  }

  async updateProfile(userId: string, firstName: string, lastName: string) {
    await this.store.setName(userId, firstName, lastName);
  }
}
