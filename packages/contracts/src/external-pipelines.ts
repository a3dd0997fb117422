import { z } from 'zod';
import { pipelineSourceViewSchema, pipelineSummarySchema } from './pipelines.js';
import { secretNameSchema } from './secrets.js';
import { descriptionSchema } from './shared.js';
import { nameSchema } from './validation.js';

/**
 * External pipelines: a pipeline whose Tekton definition lives in a git repository; a sync stores
 * a new version when the file changed (see /api/external-pipelines).
 */

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
