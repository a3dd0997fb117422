import type { WebhookDeliveryListQuery, WebhookListQuery } from '@slipway/contracts';
import type { webhookDeliveries, webhooks } from '../../platform/database/schema.js';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;
export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookWithPipeline = WebhookRow & { pipelineName: string };

/** What the webhooks service needs of storage; WebhooksStore (SQL) and FakeWebhooksStore implement it. */
export interface WebhooksStore {
  /** A page of a workspace's webhooks with their pipeline's name, optionally of one pipeline, with the total. */
  list(workspaceId: string, query: WebhookListQuery): Promise<{ rows: WebhookWithPipeline[]; total: number }>;
  get(workspaceId: string, id: string): Promise<WebhookWithPipeline | null>;
  /** The receiver's look-up: the id in the URL is all a provider sends. */
  byId(id: string): Promise<WebhookRow | null>;
  /** A runnable pipeline (not a template) of the workspace. */
  pipeline(workspaceId: string, id: string): Promise<{ id: string; name: string } | null>;
  insert(row: typeof webhooks.$inferInsert): Promise<void>;
  update(
    id: string,
    patch: Partial<
      Pick<WebhookRow, 'pipelineId' | 'type' | 'event' | 'branch' | 'enabled' | 'secretEncrypted'>
    >,
  ): Promise<void>;
  /** Deletes the webhook with its deliveries and claimed delivery ids. */
  delete(id: string): Promise<void>;
  /** Logs a delivery (the webhook's lastDeliveryAt moves) and keeps only the newest deliveries. */
  addDelivery(row: NewDelivery): Promise<void>;
  deliverySeen(webhookId: string, deliveryId: string): Promise<boolean>;
  /** True for the one caller that claims a provider delivery id, false for every replay. */
  claimDelivery(webhookId: string, deliveryId: string): Promise<boolean>;
  releaseDelivery(webhookId: string, deliveryId: string): Promise<void>;
  /** A page of one webhook's deliveries in the workspace, optionally of one outcome, with the total. */
  deliveries(
    workspaceId: string,
    webhookId: string,
    query: WebhookDeliveryListQuery,
  ): Promise<{ rows: DeliveryRow[]; total: number }>;
}
