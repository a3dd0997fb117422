import { z } from 'zod';
import { applicationNameSchema, K8S_SERVICE_TYPES, servicePortSchema } from './applications.js';
import { namespaceNameSchema } from './clusters.js';
import { MESSAGES } from './messages.js';

/**
 * Quick setup (spec §1, §7): app templates (`GET /admin/appaccelerator/types`), what quick setup
 * can use (`GET /admin/quicksetup/repositories`, `…/registries`) and the one call that makes a
 * repository, its credentials, a pipeline and an application from a template and starts the
 * first run (`POST /admin/quicksetup/createonboardingresources?id=<template id>`).
 */

export const APP_TEMPLATE_LANGUAGES = ['javascript', 'python', 'go', 'java', 'html'] as const;

/** An app template: what it is, the files it seeds and the defaults of the service it makes. */
export const appTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  language: z.enum(APP_TEMPLATE_LANGUAGES),
  /** the paths of the files seeded into the repository */
  files: z.array(z.string()),
  defaults: z.object({
    port: z.number(),
    serviceType: z.string(),
    namespace: z.string(),
    /** the image the template's Dockerfile builds on unless the setup names another */
    baseImage: z.string(),
  }),
});
export type AppTemplate = z.infer<typeof appTemplateSchema>;
export const appTemplateListSchema = z.array(appTemplateSchema);

/** A repository quick setup may use: a new hosted one, or one the workspace has. */
export const quickSetupRepositorySchema = z.object({
  kind: z.enum(['hosted', 'existing']),
  /** the existing repository's id; null for the hosted one to be made */
  id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  /** the existing repository's clone URL; null for the hosted one */
  url: z.string().nullable(),
  /** whether quick setup seeds the template's files there (only a new hosted repository) */
  seeded: z.boolean(),
});
export type QuickSetupRepository = z.infer<typeof quickSetupRepositorySchema>;
export const quickSetupRepositoryListSchema = z.array(quickSetupRepositorySchema);

/** A registry quick setup may push to: Slipway's own, under the workspace's prefix. */
export const quickSetupRegistrySchema = z.object({
  id: z.string(),
  kind: z.enum(['slipway', 'provider']),
  name: z.string(),
  description: z.string(),
  /** where images are pushed: `<host>/<workspace id>` */
  prefix: z.string(),
  /** whether pushing needs `--tls-verify=false` (Slipway served over plain HTTP) */
  insecure: z.boolean(),
});
export const quickSetupRegistriesSchema = z.object({
  registries: z.array(quickSetupRegistrySchema),
  /** outside registry providers (none yet) */
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
  note: z.string(),
});
export type QuickSetupRegistries = z.infer<typeof quickSetupRegistriesSchema>;

const SERVICE_TYPE_NAMES = K8S_SERVICE_TYPES.map((t) => t.name) as [
  (typeof K8S_SERVICE_TYPES)[number]['name'],
  ...(typeof K8S_SERVICE_TYPES)[number]['name'][],
];

export const BASE_IMAGE_RULE_MESSAGE =
  'Base image must be an image reference such as node:20-alpine or registry.example.com/base/node:20';
/** `[host[:port]/]path[:tag][@sha256:…]`, or `scratch`. */
const BASE_IMAGE_PATTERN =
  /^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

export const quickSetupQuerySchema = z.object({
  id: z.string({ message: 'Template is required' }).trim().min(1, 'Template is required').max(100),
});

/** The pipeline setup data: the application's name, where it goes and how it is served. */
export const quickSetupCreateSchema = z.object({
  name: applicationNameSchema,
  description: z.string().trim().max(1000, 'Description must have at most 1000 characters').default(''),
  environmentIds: z
    .array(z.string().trim().min(1).max(100), { message: MESSAGES.environmentRequired })
    .min(1, MESSAGES.environmentRequired)
    .max(50, 'at most 50 environments')
    .transform((ids) => [...new Set(ids)]),
  /** an existing repository of the workspace; absent or null: a hosted one named like the application */
  repositoryId: z.string().trim().min(1).max(100).nullable().default(null),
  /** the template's defaults when absent */
  serviceType: z.enum(SERVICE_TYPE_NAMES, { message: MESSAGES.serviceTypeRequired }).optional(),
  port: servicePortSchema.optional(),
  namespace: z
    .string({ message: MESSAGES.namespaceNameRequired })
    .trim()
    .min(1, MESSAGES.namespaceNameRequired)
    .pipe(namespaceNameSchema)
    .optional(),
  /**
   * The image the Dockerfile builds on (its `BASE_IMAGE` build arg): absent or empty, the
   * template's own (e.g. `node:20-alpine`); a mirror's copy where the public one cannot be pulled,
   * or `scratch` for an image of the files alone.
   */
  baseImage: z
    .string()
    .trim()
    .max(255, 'Base image must have at most 255 characters')
    .refine((v) => v === '' || BASE_IMAGE_PATTERN.test(v), BASE_IMAGE_RULE_MESSAGE)
    .transform((v) => v || undefined)
    .optional(),
});
export type QuickSetupCreate = z.input<typeof quickSetupCreateSchema>;
export type QuickSetupCreateInput = z.output<typeof quickSetupCreateSchema>;

/** What quick setup made, and the first run it started. */
export const quickSetupResultSchema = z.object({
  templateId: z.string(),
  applicationId: z.string(),
  repositoryId: z.string(),
  repositoryUrl: z.string(),
  /** the seed commit; null when an existing repository was used */
  commit: z.string().nullable(),
  pipelineId: z.string(),
  image: z.string(),
  /** the secrets made: the git credential and, when the workspace had none, `docker-config` */
  secrets: z.array(z.string()),
  runId: z.string(),
  /** what may stop the first run on this server, in words (e.g. the clone URL is refused) */
  warnings: z.array(z.string()),
});
export type QuickSetupResult = z.infer<typeof quickSetupResultSchema>;
