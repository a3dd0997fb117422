import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { changeStamps, descriptionSchema, idAndName } from './shared.js';
import { ruledName } from './validation.js';

/** Workspace secrets and variables (spec §3 secret, variable): one schema per request and per response. */

export const SECRET_TYPES = ['generic', 'registry', 'git', 'ssh', 'token'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

/** Secret names are Kubernetes-like: lowercase letters, numbers, '-' and '.'. */
export const SECRET_NAME_RULE_MESSAGE =
  "Secret name must start and end with a lowercase letter or number; only '-' and '.' are allowed";
export const secretNameSchema = ruledName(
  253,
  /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/,
  SECRET_NAME_RULE_MESSAGE,
  MESSAGES.nameIsRequired,
);

/** Keys inside a secret, like a Kubernetes Secret's data keys. */
export const SECRET_KEY_RULE_MESSAGE = "Secret keys may hold only letters, numbers, '-', '_' and '.'";
const secretKeySchema = z
  .string()
  .min(1, 'Secret keys must not be empty')
  .max(253)
  .regex(/^[A-Za-z0-9._-]+$/, SECRET_KEY_RULE_MESSAGE);
const secretValuesSchema = z.record(secretKeySchema, z.string().max(100_000));

export const secretCreateSchema = z
  .object({
    name: secretNameSchema,
    description: descriptionSchema.optional(),
    type: z.enum(SECRET_TYPES).optional(),
    global: z.boolean().optional(),
    values: secretValuesSchema.optional(),
    /** shorthand for values: { value } */
    value: z.string().max(100_000).optional(),
  })
  .refine((s) => s.value !== undefined || (s.values && Object.keys(s.values).length > 0), {
    message: 'A secret needs a value',
    path: ['values'],
  });
export type SecretCreate = z.infer<typeof secretCreateSchema>;

export const secretUpdateSchema = z.object({
  name: secretNameSchema.optional(),
  description: descriptionSchema.optional(),
  type: z.enum(SECRET_TYPES).optional(),
  global: z.boolean().optional(),
  /** keys given replace their values; keys omitted keep theirs; a null value removes the key */
  values: z.record(secretKeySchema, z.string().max(100_000).nullable()).optional(),
  value: z.string().max(100_000).optional(),
});
export type SecretUpdate = z.infer<typeof secretUpdateSchema>;

/** What the API says about a secret: never a value. */
export const secretSchema = z.object({
  ...idAndName(),
  description: z.string(),
  type: z.enum(SECRET_TYPES),
  global: z.boolean(),
  keys: z.array(z.string()),
  ...changeStamps(),
});
export type Secret = z.infer<typeof secretSchema>;
export const secretListSchema = z.array(secretSchema);

export const VARIABLE_NAME_RULE_MESSAGE =
  'Variable name must start with a letter or _ and hold only letters, numbers and _';
export const variableNameSchema = ruledName(
  255,
  /^[A-Za-z_][A-Za-z0-9_]*$/,
  VARIABLE_NAME_RULE_MESSAGE,
  MESSAGES.nameIsRequired,
);

export const variableCreateSchema = z.object({
  name: variableNameSchema,
  value: z.string().max(100_000),
  description: descriptionSchema.optional(),
});
export type VariableCreate = z.infer<typeof variableCreateSchema>;
export const variableUpdateSchema = variableCreateSchema.partial();
export type VariableUpdate = z.infer<typeof variableUpdateSchema>;

export const variableSchema = z.object({
  ...idAndName(),
  value: z.string(),
  description: z.string(),
  ...changeStamps(),
});
export type Variable = z.infer<typeof variableSchema>;
export const variableListSchema = z.array(variableSchema);
