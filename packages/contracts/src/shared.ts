import { z } from 'zod';

/**
 * Primitives several feature files share. Not re-exported by index.ts: each feature file exports
 * its own schemas, built from these.
 */

/** The first fields of a named thing in an answer: its id and its name. */
export const idAndName = () => ({ id: z.string(), name: z.string() });

/** When a thing in an answer was made and last changed (ISO 8601). */
export const changeStamps = () => ({ createdAt: z.string(), updatedAt: z.string() });

/** The pipeline a webhook or a schedule starts. */
export const pipelineIdSchema = z
  .string({ message: 'Pipeline required' })
  .trim()
  .min(1, 'Pipeline required')
  .max(64, 'Pipeline id must have at most 64 characters');

/** A pipeline's, template's or secret's description. */
export const descriptionSchema = z.string().max(1000, 'Description must have at most 1000 characters');
