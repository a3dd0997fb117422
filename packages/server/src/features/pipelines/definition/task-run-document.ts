import { z } from 'zod';
import {
  durationSchema,
  metadataSchema,
  paramSchema,
  pipelineRunWorkspaceSchema,
  taskRefSchema,
  taskSpecSchema,
  TEKTON_API_VERSION,
} from './model.js';

/*
 * Tekton `tekton.dev/v1` TaskRun (the fields of the CRD's v1 spec). A TaskRun runs one Task:
 * inline (`taskSpec`) or by name (`taskRef`). Fields Slipway cannot honour are kept here so the
 * run document reader can refuse them by name rather than drop them.
 */

const looseObject = z.record(z.string(), z.unknown());

export const taskRunSpecSchema = z.object({
  taskRef: taskRefSchema.extend({ params: z.array(looseObject).optional() }).optional(),
  taskSpec: taskSpecSchema.optional(),
  params: z.array(paramSchema).optional(),
  workspaces: z.array(pipelineRunWorkspaceSchema).optional(),
  timeout: durationSchema.optional(),
  retries: z.number().int().min(0).optional(),
  serviceAccountName: z.string().optional(),
  podTemplate: looseObject.optional(),
  computeResources: looseObject.optional(),
  stepSpecs: z.array(looseObject).optional(),
  sidecarSpecs: z.array(looseObject).optional(),
  debug: looseObject.optional(),
  status: z.string().optional(),
  statusMessage: z.string().optional(),
  managedBy: z.string().optional(),
});
export type TaskRunSpec = z.infer<typeof taskRunSpecSchema>;

export const taskRunDocumentSchema = z.object({
  apiVersion: z.literal(TEKTON_API_VERSION),
  kind: z.literal('TaskRun'),
  metadata: metadataSchema,
  spec: taskRunSpecSchema,
});
export type TaskRunDocument = z.infer<typeof taskRunDocumentSchema>;

/** The TaskRun spec fields of the v1 CRD: anything else in `spec` is not a TaskRun field. */
export const TASK_RUN_SPEC_FIELDS = Object.keys(taskRunSpecSchema.shape);
