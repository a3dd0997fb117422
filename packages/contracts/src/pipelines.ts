import { z } from 'zod';
import { listQuerySchema } from './paging.js';
import { changeStamps, descriptionSchema, idAndName } from './shared.js';
import { nameSchema } from './validation.js';

/**
 * Pipelines, pipeline templates and task templates (Tekton `tekton.dev/v1` documents stored
 * with versions and exported unchanged).
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
  ...changeStamps(),
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
  ...idAndName(),
  description: z.string(),
  version: z.number().int(),
  builtIn: z.boolean(),
  definition: z.string(),
  format: z.enum(DEFINITION_FORMATS),
  ...changeStamps(),
});
export type TaskTemplate = z.infer<typeof taskTemplateSchema>;
export const taskTemplateListSchema = z.array(taskTemplateSchema);
