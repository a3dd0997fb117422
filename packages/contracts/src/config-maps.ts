import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { changeStamps, idAndName } from './shared.js';
import { ruledName } from './validation.js';

/**
 * Config maps: named sets of plain (not secret) key → text values of a workspace, as in a
 * Kubernetes ConfigMap. Steps read them as env (`configMapKeyRef`, `envFrom`) or as files (a run's
 * workspace bound to a config map).
 */

/** Names are Kubernetes object names: a lowercase DNS-1123 subdomain of at most 253 characters. */
export const CONFIG_MAP_NAME_RULE_MESSAGE =
  "Config map name must start and end with a lowercase letter or number; only '-' and '.' are allowed, and each '.' must sit between letters or numbers";
export const CONFIG_MAP_NAME_PATTERN =
  /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$/;
export const configMapNameSchema = ruledName(
  253,
  CONFIG_MAP_NAME_PATTERN,
  CONFIG_MAP_NAME_RULE_MESSAGE,
  MESSAGES.nameIsRequired,
);

/** Keys follow Kubernetes' ConfigMap key rule; each key can become a file name. */
export const CONFIG_MAP_KEY_RULE_MESSAGE = "Config map keys may hold only letters, numbers, '-', '_' and '.'";
export const CONFIG_MAP_KEY_DOTS_MESSAGE = "Config map keys must not be '.' or '..'";
export const CONFIG_MAP_KEY_LENGTH_MESSAGE = 'Config map keys must have at most 253 characters';
export const CONFIG_MAP_KEY_EMPTY_MESSAGE = 'Config map keys must not be empty';

/** Which rule a key breaks, or null for a good key. */
export function configMapKeyProblem(key: string): string | null {
  if (key.length === 0) return CONFIG_MAP_KEY_EMPTY_MESSAGE;
  if (key.length > 253) return CONFIG_MAP_KEY_LENGTH_MESSAGE;
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) return CONFIG_MAP_KEY_RULE_MESSAGE;
  if (key === '.' || key === '..') return CONFIG_MAP_KEY_DOTS_MESSAGE;
  return null;
}

export const configMapKeySchema = z.string().superRefine((key, ctx) => {
  const problem = configMapKeyProblem(key);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Kubernetes' limit on a ConfigMap: its keys and values together, in bytes of UTF-8. */
export const CONFIG_MAP_MAX_BYTES = 1_048_576;
export const CONFIG_MAP_SIZE_MESSAGE = 'Config map data must total at most 1 MiB (1,048,576 bytes)';

export function configMapBytes(data: Record<string, string>): number {
  const encoder = new TextEncoder();
  let bytes = 0;
  for (const [key, value] of Object.entries(data))
    bytes += encoder.encode(key).length + encoder.encode(value).length;
  return bytes;
}

/** key → value; each bad key is reported under its own path with the rule it breaks. */
export const configMapDataSchema = z.record(z.string(), z.string()).superRefine((data, ctx) => {
  for (const key of Object.keys(data)) {
    const problem = configMapKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
  }
  if (configMapBytes(data) > CONFIG_MAP_MAX_BYTES)
    ctx.addIssue({ code: 'custom', message: CONFIG_MAP_SIZE_MESSAGE });
});

const descriptionSchema = z.string().max(1000, 'Description must have at most 1000 characters');

export const configMapCreateSchema = z.object({
  name: configMapNameSchema,
  description: descriptionSchema.optional(),
  /** key → value; may be empty */
  data: configMapDataSchema.default({}),
});
export type ConfigMapCreate = z.input<typeof configMapCreateSchema>;

/** Given fields replace theirs; `data`, when given, replaces every key (values are not secret). */
export const configMapUpdateSchema = z.object({
  name: configMapNameSchema.optional(),
  description: descriptionSchema.optional(),
  data: configMapDataSchema.optional(),
});
export type ConfigMapUpdate = z.infer<typeof configMapUpdateSchema>;

/** What the API says about a config map: its values too (they are not secret). */
export const configMapSchema = z.object({
  ...idAndName(),
  description: z.string(),
  data: z.record(z.string(), z.string()),
  ...changeStamps(),
});
export type ConfigMap = z.infer<typeof configMapSchema>;
export const configMapListSchema = z.array(configMapSchema);
