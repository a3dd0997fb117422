import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { listQuerySchema, pageRules, sortOrderSchema } from './paging.js';
import { changeStamps, pipelineIdSchema } from './shared.js';

/**
 * Webhooks (issue 4, spec §3 Webhook): received at /api/hooks/<id>, each starts a pipeline.
 * One schema per request and per response.
 */

export const WEBHOOK_TYPES = ['github', 'gitlab', 'bitbucket'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** The events each provider names in its event header (X-GitHub-Event, X-Gitlab-Event, X-Event-Key). */
export const WEBHOOK_EVENTS: Record<WebhookType, readonly string[]> = {
  github: ['push', 'pull_request'],
  gitlab: ['Push Hook', 'Merge Request Hook'],
  bitbucket: ['repo:push', 'pullrequest:created', 'pullrequest:updated'],
};

/**
 * The run params a delivery fills in, when the pipeline declares them: the repository's clone
 * URL, the commit, the branch and the author.
 */
export const WEBHOOK_RUN_PARAMS = {
  url: 'git-url',
  revision: 'git-revision',
  branch: 'git-branch',
  author: 'git-author',
} as const;

/** `duplicate`: the provider's delivery id already started a run of this webhook (a redelivery). */
export const WEBHOOK_DELIVERY_OUTCOMES = ['triggered', 'ignored', 'rejected', 'failed', 'duplicate'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

export const WEBHOOK_EVENT_RULE_MESSAGE = 'Event must be one the provider sends for this type';
export const BRANCH_GLOB_RULE_MESSAGE =
  "Branch may hold letters, numbers and '/', '.', '_', '-', '*', '?'; '*' alone matches every branch";
export const WEBHOOK_SECRET_RULE_MESSAGE = 'Secret must have 16 to 256 characters without spaces';

export function webhookEventAllowed(type: WebhookType, event: string): boolean {
  return WEBHOOK_EVENTS[type].includes(event);
}

export const branchGlobSchema = z
  .string()
  .trim()
  .min(1, 'Branch required')
  .max(255, 'Branch must have at most 255 characters')
  .regex(/^[A-Za-z0-9/._*?-]+$/, BRANCH_GLOB_RULE_MESSAGE);

export const webhookSecretSchema = z
  .string()
  .min(16, WEBHOOK_SECRET_RULE_MESSAGE)
  .max(256, WEBHOOK_SECRET_RULE_MESSAGE)
  .regex(/^\S+$/, WEBHOOK_SECRET_RULE_MESSAGE);

const webhookTypeSchema = z.enum(WEBHOOK_TYPES, { message: MESSAGES.typeRequired });
const webhookEventSchema = z.string({ message: 'Event required' }).trim().min(1, 'Event required').max(100);

export const webhookCreateSchema = z
  .object({
    pipelineId: pipelineIdSchema,
    type: webhookTypeSchema,
    event: webhookEventSchema,
    branch: branchGlobSchema.default('*'),
    /** leave out to have one generated; shown once in the answer */
    secret: webhookSecretSchema.optional(),
    enabled: z.boolean().default(true),
  })
  .refine((w) => webhookEventAllowed(w.type, w.event), {
    message: WEBHOOK_EVENT_RULE_MESSAGE,
    path: ['event'],
  });
export type WebhookCreate = z.input<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.object({
  pipelineId: pipelineIdSchema.optional(),
  type: webhookTypeSchema.optional(),
  event: webhookEventSchema.optional(),
  branch: branchGlobSchema.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

export const webhookRotateSchema = z.object({ secret: webhookSecretSchema.optional() }).default({});
export type WebhookRotate = z.infer<typeof webhookRotateSchema>;

export const webhookSchema = z.object({
  id: z.string(),
  pipelineId: z.string(),
  pipelineName: z.string(),
  type: z.enum(WEBHOOK_TYPES),
  event: z.string(),
  branch: z.string(),
  enabled: z.boolean(),
  /** the path the provider posts to: /api/hooks/<id> */
  path: z.string(),
  ...changeStamps(),
  lastDeliveryAt: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListSchema = z.array(webhookSchema);

/** The answer to create and rotate: the only times the secret is shown. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookListQuerySchema = pageRules(
  listQuerySchema.safeExtend({
    _sort: z.enum(['createdAt', 'type', 'event', 'branch', 'id']).default('createdAt'),
    _order: sortOrderSchema('DESC'),
    pipelineId: z.string().max(64).optional(),
  }),
);
export type WebhookListQuery = z.infer<typeof webhookListQuerySchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  receivedAt: z.string(),
  deliveryId: z.string().nullable(),
  event: z.string().nullable(),
  outcome: z.enum(WEBHOOK_DELIVERY_OUTCOMES),
  statusCode: z.number().int(),
  message: z.string(),
  /** repository, branch, commit and author read from the payload */
  params: z.record(z.string(), z.string()).nullable(),
  runId: z.string().nullable(),
  payloadBytes: z.number().int(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.array(webhookDeliverySchema);

export const webhookDeliveryListQuerySchema = pageRules(
  listQuerySchema.safeExtend({
    _sort: z.enum(['receivedAt', 'outcome', 'id']).default('receivedAt'),
    _order: sortOrderSchema('DESC'),
    outcome: z.enum(WEBHOOK_DELIVERY_OUTCOMES).optional(),
  }),
);
export type WebhookDeliveryListQuery = z.infer<typeof webhookDeliveryListQuerySchema>;

/** What the receive endpoint answers the provider. */
export const webhookReceiptSchema = z.object({
  outcome: z.enum(WEBHOOK_DELIVERY_OUTCOMES),
  message: z.string(),
  deliveryId: z.string(),
  runId: z.string().nullable(),
});
export type WebhookReceipt = z.infer<typeof webhookReceiptSchema>;
