import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { listQuerySchema } from './paging.js';

/**
 * Source repositories of a workspace (spec §2 repositories; §7 `GET /admin/repository`). A hosted
 * repository lives in Slipway itself and is cloned and pushed over git's smart HTTP; an external
 * one is a URL Slipway clones from.
 */

export const REPOSITORY_KINDS = ['hosted', 'external'] as const;
export type RepositoryKind = (typeof REPOSITORY_KINDS)[number];

/** A repository's name is part of its URL: lowercase letters and numbers, '-' between (spec §5 wording). */
export const repositoryNameSchema = z
  .string({ message: MESSAGES.nameRequired })
  .trim()
  .min(1, MESSAGES.nameRequired)
  .max(63, 'Name must have at most 63 characters')
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, MESSAGES.smallcaseOrNumbers);

export const BRANCH_RULE_MESSAGE =
  "Branch must be a valid git branch name: no spaces, '..', '~', '^', ':', '?', '*', '[' or '\\'";
/** A branch name git accepts (the rules of `git check-ref-format --branch`, without the rarer corners). */
export const branchNameSchema = z
  .string({ message: 'Branch is required' })
  .trim()
  .min(1, 'Branch is required')
  .max(255, 'Branch must have at most 255 characters')
  .refine(
    (b) =>
      !/[\s~^:?*[\\]/.test(b) &&
      ![...b].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) &&
      !b.includes('..') &&
      !b.includes('@{') &&
      !b.includes('//') &&
      !b.startsWith('-') &&
      !b.startsWith('/') &&
      !b.endsWith('/') &&
      !b.endsWith('.') &&
      !b.endsWith('.lock') &&
      b !== '@',
    BRANCH_RULE_MESSAGE,
  );

const descriptionSchema = z.string().trim().max(1000, 'Description must have at most 1000 characters');

export const repositoryCreateSchema = z
  .object({
    name: repositoryNameSchema,
    description: descriptionSchema.default(''),
    kind: z.enum(REPOSITORY_KINDS, { message: MESSAGES.typeRequired }).default('hosted'),
    /** an external repository's clone URL (https or ssh); a hosted one has none */
    url: z.string().trim().max(2048, 'URL must have at most 2048 characters').optional(),
    defaultBranch: branchNameSchema.default('main'),
  })
  .superRefine((r, ctx) => {
    if (r.kind === 'external' && !r.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'URL is required for an external repository' });
    if (r.kind === 'hosted' && r.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'A hosted repository takes no URL' });
  });
export type RepositoryCreate = z.input<typeof repositoryCreateSchema>;

export const repositoryUpdateSchema = z.object({
  description: descriptionSchema.optional(),
  defaultBranch: branchNameSchema.optional(),
});
export type RepositoryUpdate = z.input<typeof repositoryUpdateSchema>;

export const repositoryBranchSchema = z.object({ name: z.string(), commit: z.string() });

export const repositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(REPOSITORY_KINDS),
  /** where to clone it from: a hosted repository's smart-HTTP URL on this server */
  url: z.string(),
  defaultBranch: z.string(),
  lastPushAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Repository = z.infer<typeof repositorySchema>;
export const repositoryListSchema = z.array(repositorySchema);
export const repositoryDetailSchema = repositorySchema.extend({
  /** a hosted repository's branches (empty until the first push); an external one's are not read */
  branches: z.array(repositoryBranchSchema),
});
export type RepositoryDetail = z.infer<typeof repositoryDetailSchema>;

/** `GET /admin/repository`: the spec's query, `repository_type_id` naming a kind. */
export const repositoryListQuerySchema = listQuerySchema.safeExtend({
  name: z.string().max(100).optional(),
  repository_type_id: z.enum(REPOSITORY_KINDS).optional(),
});
export type RepositoryListQuery = z.infer<typeof repositoryListQuerySchema>;

/** A hosted repository's deploy token: clone only (`read`) or clone and push (`write`). */
export const DEPLOY_TOKEN_ACCESS = ['read', 'write'] as const;
export const deployTokenCreateSchema = z.object({
  name: z
    .string({ message: MESSAGES.nameIsRequired })
    .trim()
    .min(1, MESSAGES.nameIsRequired)
    .max(100, 'Name must have at most 100 characters'),
  access: z.enum(DEPLOY_TOKEN_ACCESS).default('read'),
  /** days until it expires; 1 to 366 */
  expiresInDays: z.coerce.number().int().min(1, 'at least 1 day').max(366, 'at most 366 days').default(90),
});
export type DeployTokenCreate = z.input<typeof deployTokenCreateSchema>;
export const deployTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  access: z.enum(DEPLOY_TOKEN_ACCESS),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeployToken = z.infer<typeof deployTokenSchema>;
export const deployTokenListSchema = z.array(deployTokenSchema);
/** The token itself is answered once, when it is made. */
export const deployTokenCreatedSchema = deployTokenSchema.extend({ token: z.string() });
export type DeployTokenCreated = z.infer<typeof deployTokenCreatedSchema>;
/** Deploy tokens start with this, so a leaked one is recognisable (and told from service account tokens). */
export const DEPLOY_TOKEN_PREFIX = 'slpdt_';
