import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { ORGANISATION_ROLES } from './permissions.js';
import { emailSchema, nameSchema, otpSchema, passwordSchema, requiredString } from './validation.js';
import { idAndName } from './shared.js';

export const signupRequestSchema = z.object({
  firstName: nameSchema(),
  lastName: nameSchema(),
  email: emailSchema,
  password: passwordSchema,
  /** The organisation a first sign-up creates; defaults to "<first name>'s organisation". */
  organisationName: nameSchema().optional(),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const signupResponseSchema = z.object({
  email: z.string(),
  /** Seconds before another code may be asked for (the countdown timer). */
  resendAfterSeconds: z.number().int(),
});

export const verifyCodeRequestSchema = z.object({ email: emailSchema, code: otpSchema });
export const resendCodeRequestSchema = z.object({ email: emailSchema });

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: requiredString(MESSAGES.passwordRequired).max(256),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const ldapLoginRequestSchema = z.object({
  username: z.string({ message: MESSAGES.nameIsRequired }).trim().min(1, MESSAGES.nameIsRequired).max(256),
  password: requiredString(MESSAGES.passwordRequired).max(256),
  organisationId: z.string().min(1),
});

/** What sign-in answers: the spec's auth state. */
export const loginResponseSchema = z.object({
  token: z.string(),
  projectId: z.string().nullable(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export const messageResponseSchema = z.object({ message: z.string() });

export const resetPasswordRequestSchema = z
  .object({
    token: z.string().min(1),
    password: passwordSchema,
    confirmPassword: requiredString(MESSAGES.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordsMustMatch,
    path: ['confirmPassword'],
  });

export const changePasswordRequestSchema = z
  .object({
    currentPassword: requiredString(MESSAGES.currentPasswordRequired),
    newPassword: requiredString(MESSAGES.newPasswordRequired).pipe(passwordSchema),
    confirmPassword: requiredString(MESSAGES.confirmPasswordRequired),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: MESSAGES.passwordsMustMatch,
    path: ['confirmPassword'],
  });

export const profileUpdateRequestSchema = z.object({ firstName: nameSchema(), lastName: nameSchema() });

export const organisationSummarySchema = z.object({
  ...idAndName(),
  role: z.enum(ORGANISATION_ROLES),
});
export const workspaceSummarySchema = z.object({
  ...idAndName(),
  organisationId: z.string(),
  /** The caller's role in it: a built-in role name or a custom role's id; admins see 'admin'. */
  role: z.string(),
});

export const profileResponseSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  organisationId: z.string(),
  /**
   * How this session signed in. An 'ldap' session was vouched for by the current organisation's
   * directory and stays in that organisation: the account switch refuses it.
   */
  signInMethod: z.enum(['password', 'ldap']).optional(),
  organisations: z.array(organisationSummarySchema),
  workspaces: z.array(workspaceSummarySchema),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

/** The account switch's answer to a session that came from an organisation's LDAP directory. */
export const LDAP_SESSION_SWITCH_MESSAGE =
  "You signed in through your organisation's directory (LDAP), so this session stays in that organisation. Sign out, then sign in to the other organisation.";

/** Header names of the common headers (spec §7). */
export const HEADERS = {
  authorization: 'authorization',
  workspace: 'x-workspace-id',
  fingerprint: 'x-browserfingerprint',
} as const;

/** Verification codes: 6 digits, valid 15 minutes, 5 wrong tries, resend after the countdown. */
export const VERIFICATION = {
  codeTtlMs: 15 * 60 * 1000,
  maxAttempts: 5,
  resendAfterSeconds: 60,
} as const;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
