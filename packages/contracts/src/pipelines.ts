import { z } from 'zod';
import { listQuerySchema } from './paging.js';
import { nameSchema } from './validation.js';

/**
 * Pipelines, pipeline templates and task templates (Tekton `tekton.dev/v1` documents stored
 * with versions and exported unchanged), secrets and variables.
 */

// ── Pipelines and pipeline templates ────────────────────────────────────────────────────────

export const PIPELINE_KINDS = ['pipeline', 'template'] as const;
export type PipelineKind = (typeof PIPELINE_KINDS)[number];
export const DEFINITION_FORMATS = ['yaml', 'json'] as const;
export type DefinitionFormat = (typeof DEFINITION_FORMATS)[number];

/** A definition is text: YAML or JSON, one document or a YAML stream of Tasks and a Pipeline. */
export const definitionTextSchema = z
  .string({ message: 'Definition is required' })
  .min(1, 'Definition is required')
  .max(1_000_000, 'Definition must have at most 1,000,000 characters');
const descriptionSchema = z.string().max(1000, 'Description must have at most 1000 characters');

export const pipelineCreateSchema = z.object({
  name: nameSchema(),
  description: descriptionSchema.optional(),
  definition: definitionTextSchema,
  rollbackPipelineId: z.string().min(1).max(100).nullish(),
});
export type PipelineCreate = z.infer<typeof pipelineCreateSchema>;

export const pipelineUpdateSchema = z.object({
  name: nameSchema().optional(),
  description: descriptionSchema.optional(),
  definition: definitionTextSchema.optional(),
  rollbackPipelineId: z.string().min(1).max(100).nullish(),
});
export type PipelineUpdate = z.infer<typeof pipelineUpdateSchema>;

export const pipelineInstantiateSchema = z.object({ name: nameSchema() });

export const pipelineListQuerySchema = listQuerySchema.safeExtend({
  name: z.string().max(100).optional(),
});
export type PipelineListQuery = z.infer<typeof pipelineListQuerySchema>;

export const pipelineSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(PIPELINE_KINDS),
  name: z.string(),
  description: z.string(),
  version: z.number().int(),
  rollbackPipelineId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PipelineSummary = z.infer<typeof pipelineSummarySchema>;
export const pipelineListSchema = z.array(pipelineSummarySchema);

export const pipelineVersionInfoSchema = z.object({
  version: z.number().int(),
  format: z.enum(DEFINITION_FORMATS),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export const pipelineVersionSchema = pipelineVersionInfoSchema.extend({ definition: z.string() });
export type PipelineVersion = z.infer<typeof pipelineVersionSchema>;

/** Where an external pipeline's definition comes from (decision 013), as shown. */
export const pipelineSourceViewSchema = z.object({
  kind: z.literal('git'),
  url: z.string(),
  revision: z.string(),
  path: z.string(),
  secret: z.string().nullable(),
});
export type PipelineSourceView = z.infer<typeof pipelineSourceViewSchema>;

export const pipelineDetailSchema = pipelineSummarySchema.extend({
  definition: z.string(),
  format: z.enum(DEFINITION_FORMATS),
  versions: z.array(pipelineVersionInfoSchema),
  /** set for an external pipeline: its definition changes only in git (saving one answers 409) */
  source: pipelineSourceViewSchema.nullable().optional(),
});
export type PipelineDetail = z.infer<typeof pipelineDetailSchema>;

export const pipelineVersionParamsSchema = z.object({
  id: z.string().min(1).max(100),
  version: z.coerce.number().int().min(1),
});

// ── Task templates ──────────────────────────────────────────────────────────────────────────

export const taskTemplateCreateSchema = z.object({
  /** defaults to the Task's metadata.name */
  name: z.string().trim().min(1).max(100).optional(),
  description: descriptionSchema.optional(),
  definition: definitionTextSchema,
});
export type TaskTemplateCreate = z.infer<typeof taskTemplateCreateSchema>;
export const taskTemplateUpdateSchema = taskTemplateCreateSchema.partial();
export type TaskTemplateUpdate = z.infer<typeof taskTemplateUpdateSchema>;

export const taskTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.number().int(),
  builtIn: z.boolean(),
  definition: z.string(),
  format: z.enum(DEFINITION_FORMATS),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TaskTemplate = z.infer<typeof taskTemplateSchema>;
export const taskTemplateListSchema = z.array(taskTemplateSchema);

// ── Secrets and variables ───────────────────────────────────────────────────────────────────

export const SECRET_TYPES = ['generic', 'registry', 'git', 'ssh', 'token'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

/** Secret names are Kubernetes-like: lowercase letters, numbers, '-' and '.'. */
export const SECRET_NAME_RULE_MESSAGE =
  "Secret name must start and end with a lowercase letter or number; only '-' and '.' are allowed";
export const secretNameSchema = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(253, 'Name must have at most 253 characters')
  .regex(/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/, SECRET_NAME_RULE_MESSAGE);

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
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(SECRET_TYPES),
  global: z.boolean(),
  keys: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Secret = z.infer<typeof secretSchema>;
export const secretListSchema = z.array(secretSchema);

export const VARIABLE_NAME_RULE_MESSAGE =
  'Variable name must start with a letter or _ and hold only letters, numbers and _';
export const variableNameSchema = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(255, 'Name must have at most 255 characters')
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, VARIABLE_NAME_RULE_MESSAGE);

export const variableCreateSchema = z.object({
  name: variableNameSchema,
  value: z.string().max(100_000),
  description: descriptionSchema.optional(),
});
export type VariableCreate = z.infer<typeof variableCreateSchema>;
export const variableUpdateSchema = variableCreateSchema.partial();
export type VariableUpdate = z.infer<typeof variableUpdateSchema>;

export const variableSchema = z.object({
  id: z.string(),
  name: z.string(),
  value: z.string(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Variable = z.infer<typeof variableSchema>;
export const variableListSchema = z.array(variableSchema);

// ── External pipelines ──────────────────────────────────────────────────────────────────────
// A pipeline whose Tekton definition lives in a git repository; a sync stores a new version
// when the file changed (see /api/external-pipelines).

export const EXTERNAL_SOURCE_URL_MESSAGE =
  'Repository URL must start with https://, http://, ssh:// or file://, or be user@host:path';

const URL_USER = '[A-Za-z0-9._~][A-Za-z0-9._~-]*';
const URL_HOST = '[A-Za-z0-9][A-Za-z0-9.-]*';
const SCP_LIKE = String.raw`${URL_USER}@${URL_HOST}:(?!//)\S+`;

/**
 * A repository URL git may fetch: https/http, ssh:// (optionally with a user and port), the scp-like
 * user@host:path form, or an absolute file:// path. Users and hosts cannot start with '-', so
 * nothing in a URL can pass as an option to git or ssh.
 */
export const REPOSITORY_URL_PATTERN = new RegExp(
  `^(?:${[
    String.raw`https?://[^\s/]+\S*`,
    String.raw`ssh://(?:${URL_USER}@)?(?:${URL_HOST}|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?/\S+`,
    SCP_LIKE,
    String.raw`file:///\S*`,
  ].join('|')})$`,
);

const SCP_LIKE_URL = new RegExp(`^${SCP_LIKE}$`);

/** Whether git reaches the repository over SSH (ssh:// or user@host:path). */
export const isSshRepositoryUrl = (url: string) => url.startsWith('ssh://') || SCP_LIKE_URL.test(url);

export const EXTERNAL_SOURCE_REVISION_MESSAGE =
  "Revision must be a branch, tag or commit: letters, numbers and '/', '.', '_', '-', not starting with '-'";
export const EXTERNAL_SOURCE_PATH_MESSAGE =
  'Path must be a .yaml, .yml or .json file inside the repository (relative, without "..")';

export const externalPipelineSourceSchema = z.object({
  kind: z.literal('git').default('git'),
  url: z
    .string({ message: 'Repository URL is required' })
    .trim()
    .min(1, 'Repository URL is required')
    .max(2000, 'Repository URL must have at most 2000 characters')
    .regex(REPOSITORY_URL_PATTERN, EXTERNAL_SOURCE_URL_MESSAGE),
  revision: z
    .string()
    .trim()
    .max(255, 'Revision must have at most 255 characters')
    .regex(/^(?!-)[A-Za-z0-9._/-]+$/, EXTERNAL_SOURCE_REVISION_MESSAGE)
    .default('main'),
  path: z
    .string({ message: 'Path is required' })
    .trim()
    .min(1, 'Path is required')
    .max(1000, 'Path must have at most 1000 characters')
    .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0]*\.(ya?ml|json)$/i, EXTERNAL_SOURCE_PATH_MESSAGE),
  /**
   * A workspace secret for a private repository: over HTTPS its "token" key, over SSH its
   * "ssh-privatekey" key and, optionally, "known_hosts" (the keys of a Kubernetes ssh-auth Secret).
   */
  secret: secretNameSchema.nullish(),
});
export type ExternalPipelineSource = z.infer<typeof externalPipelineSourceSchema>;
export type ExternalPipelineSourceInput = z.input<typeof externalPipelineSourceSchema>;

export const externalPipelineCreateSchema = z.object({
  name: nameSchema(),
  description: descriptionSchema.optional(),
  source: externalPipelineSourceSchema,
});
export type ExternalPipelineCreate = z.infer<typeof externalPipelineCreateSchema>;

export const externalPipelineUpdateSchema = z.object({
  name: nameSchema().optional(),
  description: descriptionSchema.optional(),
  source: externalPipelineSourceSchema.optional(),
});
export type ExternalPipelineUpdate = z.infer<typeof externalPipelineUpdateSchema>;

export const externalPipelineSchema = pipelineSummarySchema.extend({
  source: pipelineSourceViewSchema,
  lastSyncedAt: z.string().nullable(),
  /** why the last sync failed (the version before it stays the one that runs); null after a good sync */
  syncError: z.string().nullable(),
});
export type ExternalPipeline = z.infer<typeof externalPipelineSchema>;
export const externalPipelineListSchema = z.array(externalPipelineSchema);

export const EXTERNAL_SYNC_OUTCOMES = ['changed', 'unchanged', 'failed'] as const;
export const externalPipelineSyncSchema = z.object({
  outcome: z.enum(EXTERNAL_SYNC_OUTCOMES),
  pipeline: externalPipelineSchema,
});
export type ExternalPipelineSync = z.infer<typeof externalPipelineSyncSchema>;
