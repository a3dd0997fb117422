import { z } from 'zod';
import { PAGING } from './paging.js';

/**
 * Primitives several feature files share. Not re-exported by index.ts: each feature file exports
 * its own schemas, built from these.
 */

/** The pipeline a webhook or a schedule starts. */
export const pipelineIdSchema = z
  .string({ message: 'Pipeline required' })
  .trim()
  .min(1, 'Pipeline required')
  .max(64, 'Pipeline id must have at most 64 characters');

/** A list query's page: _end not before _start, and at most PAGING.maxPageSize rows. */
export const pageRules = <T extends z.ZodType<{ _start: number; _end: number }>>(schema: T) =>
  schema
    .refine((q) => q._end >= q._start, { message: '_end must not be less than _start', path: ['_end'] })
    .refine((q) => q._end - q._start <= PAGING.maxPageSize, {
      message: `at most ${PAGING.maxPageSize} rows per page`,
      path: ['_end'],
    });

/** A pipeline's, template's or secret's description. */
export const descriptionSchema = z.string().max(1000, 'Description must have at most 1000 characters');
