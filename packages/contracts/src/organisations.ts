import { z } from 'zod';
import { ORGANISATION_ROLES } from './permissions.js';
import { nameSchema } from './validation.js';
import { idAndName } from './shared.js';

/** Organisations and their workspaces (issue 3, spec §3, §6): one schema per request and per response. */

export const organisationSchema = z.object({
  ...idAndName(),
  role: z.enum(ORGANISATION_ROLES),
  /** the organisation the caller's session is in */
  current: z.boolean(),
  /** no run of the organisation lasts longer than this many minutes (null: only the run's own timeout) */
  maxRunMinutes: z.number().int().nullable(),
});
export type Organisation = z.infer<typeof organisationSchema>;
export const organisationListSchema = z.array(organisationSchema);

/** The longest cap an organisation may put on a run's duration: 7 days, in minutes. */
export const MAX_RUN_MINUTES_LIMIT = 10_080;
export const MAX_RUN_MINUTES_RULE_MESSAGE =
  'Maximum run duration must be a whole number of minutes from 1 to 10080 (7 days)';
/** An organisation's cap on any run's duration, in minutes; null for none. */
export const maxRunMinutesSchema = z
  .number({ message: MAX_RUN_MINUTES_RULE_MESSAGE })
  .int(MAX_RUN_MINUTES_RULE_MESSAGE)
  .min(1, MAX_RUN_MINUTES_RULE_MESSAGE)
  .max(MAX_RUN_MINUTES_LIMIT, MAX_RUN_MINUTES_RULE_MESSAGE)
  .nullable();
export const ORGANISATION_UPDATE_EMPTY_MESSAGE = 'Give a name or a maximum run duration';
/** An organisation's settings: its name, its cap on a run's duration, or both. */
export const organisationUpdateRequestSchema = z
  .object({ name: nameSchema().optional(), maxRunMinutes: maxRunMinutesSchema.optional() })
  .refine((body) => body.name !== undefined || body.maxRunMinutes !== undefined, {
    message: ORGANISATION_UPDATE_EMPTY_MESSAGE,
  });
export type OrganisationUpdateRequest = z.infer<typeof organisationUpdateRequestSchema>;

export const workspaceSchema = z.object({
  ...idAndName(),
  organisationId: z.string(),
  /** the caller's role in it: a built-in role name, a custom role's id, or 'admin' */
  role: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;
export const workspaceListSchema = z.array(workspaceSchema);
export const workspaceRequestSchema = z.object({ name: nameSchema() });
