import { z } from 'zod';
import { MESSAGES } from './messages.js';

/**
 * The validation rules of spec §5, one schema each, used by the server to refuse bad input and
 * by the web forms to explain it, with the same words.
 */

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = z
  .string({ message: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .max(254, MESSAGES.invalidEmail)
  .regex(EMAIL_RE, MESSAGES.invalidEmail)
  .transform((v) => v.toLowerCase());

/** Words for the password rule; the spec states the rule, not its message. */
export const PASSWORD_RULE_MESSAGE =
  'Password must have at least 8 characters, one uppercase letter, one lowercase letter, one number and one special character';

/** At least one uppercase letter, one lowercase letter, one number and one special character. */
export function passwordMeetsRule(value: string): boolean {
  return (
    value.length >= 8 &&
    /[A-Z]/.test(value) &&
    /[a-z]/.test(value) &&
    /[0-9]/.test(value) &&
    /[^A-Za-z0-9]/.test(value)
  );
}

export const passwordSchema = requiredString(MESSAGES.passwordRequired)
  .max(256, 'Password must have at most 256 characters')
  .refine(passwordMeetsRule, PASSWORD_RULE_MESSAGE);

/** Names start and end with text or numbers; ',', '.', '-' (and spaces) are allowed between. */
export const NAME_RULE_MESSAGE =
  "Name must start and end with a letter or number; only ',', '.', '-' and spaces are allowed";
const NAME_RE = /^[\p{L}\p{N}](?:[\p{L}\p{N} ,.-]*[\p{L}\p{N}])?$/u;

/** Text that must be given: `required` when it is missing or empty. */
export function requiredString(required: string) {
  return z.string({ message: required }).min(1, required);
}

/** A name of at most `max` characters (after trimming) that `pattern` accepts, else `rule`. */
export function ruledName(
  max: number,
  pattern: RegExp,
  rule: string,
  required: string = MESSAGES.nameRequired,
) {
  return z
    .string({ message: required })
    .trim()
    .min(1, required)
    .max(max, `Name must have at most ${max} characters`)
    .regex(pattern, rule);
}

export function nameSchema(requiredMessage: string = MESSAGES.nameRequired) {
  return ruledName(100, NAME_RE, NAME_RULE_MESSAGE, requiredMessage);
}

/** Backup schedule names: lowercase text or numbers at both ends; only '-' between. */
export const BACKUP_SCHEDULE_NAME_RULE_MESSAGE =
  "Name must start and end with a lowercase letter or number; only '-' is allowed";
export const backupScheduleNameSchema = ruledName(
  63,
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/,
  BACKUP_SCHEDULE_NAME_RULE_MESSAGE,
);

/** Provider names start with a lowercase letter; ',', '.', '-', '_' are allowed in the middle. */
export const PROVIDER_NAME_RULE_MESSAGE =
  "Name must start with a lowercase letter; only ',', '.', '-' and '_' are allowed in the middle";
export const providerNameSchema = ruledName(
  100,
  /^[a-z](?:[a-z0-9,._-]*[a-z0-9])?$/,
  PROVIDER_NAME_RULE_MESSAGE,
);

export const urlSchema = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, MESSAGES.urlHttp);

/** A 6-digit e-mailed verification code. */
export const otpSchema = z
  .string({ message: MESSAGES.invalidOtp })
  .trim()
  .regex(/^\d{6}$/, MESSAGES.invalidOtp);

/** The route params of anything addressed by its id (/…/:id). */
export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });
