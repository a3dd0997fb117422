import { and, desc, eq, getTableColumns, lt, sql } from 'drizzle-orm';
import type { WebhookDeliveryListQuery, WebhookListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import {
  pipelines,
  webhookDeliveries,
  webhookDeliveryIds,
  webhooks,
} from '../../platform/database/schema.js';
import { deleteById, firstRow, updateById } from '../../platform/database/rows.js';
import { getInWorkspace, listPage } from '../../platform/database/workspace-rows.js';
import { runnablePipeline } from '../pipeline-catalogue/runnable-pipeline.js';
import type { WebhooksStore, NewDelivery, WebhookRow, WebhookWithPipeline } from './webhooks-store-type.js';

export type { DeliveryRow, NewDelivery, WebhookRow, WebhookWithPipeline } from './webhooks-store-type.js';

const SORTABLE = {
  createdAt: webhooks.createdAt,
  type: webhooks.type,
  event: webhooks.event,
  branch: webhooks.branch,
  id: webhooks.id,
};
const DELIVERY_SORTABLE = {
  receivedAt: webhookDeliveries.receivedAt,
  outcome: webhookDeliveries.outcome,
  id: webhookDeliveries.id,
};

/** How many deliveries each webhook's log keeps; older ones are dropped as new ones arrive. */
export const DELIVERY_LOG_KEEP = 1000;

/** SQL for webhooks and their deliveries; every query names the workspace, except the receiver's. */
export class SqlWebhooksStore implements WebhooksStore {
  constructor(
    private readonly db: AppDb,
    private readonly keep = DELIVERY_LOG_KEEP,
  ) {}

  /** The webhook's columns and its pipeline's name. */
  private selectWithPipeline() {
    return this.db
      .select({ ...getTableColumns(webhooks), pipelineName: pipelines.name })
      .from(webhooks)
      .innerJoin(pipelines, eq(pipelines.id, webhooks.pipelineId))
      .$dynamic();
  }

  async list(workspaceId: string, query: WebhookListQuery) {
    return listPage(this.db, webhooks, {
      workspaceId,
      query,
      where: [query.pipelineId ? eq(webhooks.pipelineId, query.pipelineId) : undefined],
      sorts: SORTABLE,
      fallbackSort: webhooks.createdAt,
      select: this.selectWithPipeline(),
    });
  }

  async get(workspaceId: string, id: string): Promise<WebhookWithPipeline | null> {
    return getInWorkspace(this.db, webhooks, workspaceId, id, {
      select: this.selectWithPipeline(),
    });
  }

  /** The receiver's look-up: the id in the URL is all a provider sends. */
  async byId(id: string): Promise<WebhookRow | null> {
    return firstRow(this.db, webhooks, eq(webhooks.id, id));
  }

  /** A runnable pipeline (not a template) of the workspace. */
  async pipeline(workspaceId: string, id: string): Promise<{ id: string; name: string } | null> {
    return runnablePipeline(this.db, workspaceId, id);
  }

  async insert(row: typeof webhooks.$inferInsert): Promise<void> {
    await this.db.insert(webhooks).values(row);
  }

  async update(
    id: string,
    patch: Partial<
      Pick<WebhookRow, 'pipelineId' | 'type' | 'event' | 'branch' | 'enabled' | 'secretEncrypted'>
    >,
  ): Promise<void> {
    await updateById(this.db, webhooks, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, webhooks, id);
  }

  /** Logs a delivery and trims the log to the newest `keep`, so unsigned traffic cannot fill it. */
  async addDelivery(row: NewDelivery): Promise<void> {
    await this.db.insert(webhookDeliveries).values(row);
    await this.db
      .update(webhooks)
      .set({ lastDeliveryAt: row.receivedAt ?? new Date() })
      .where(eq(webhooks.id, row.webhookId));
    const oldestKept = this.db
      .select({ at: webhookDeliveries.receivedAt })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, row.webhookId))
      .orderBy(desc(webhookDeliveries.receivedAt))
      .offset(this.keep - 1)
      .limit(1);
    await this.db
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.webhookId, row.webhookId),
          lt(webhookDeliveries.receivedAt, sql`(${oldestKept})`),
        ),
      );
  }

  /** Whether a delivery with this provider id already started a run of the webhook. */
  async deliverySeen(webhookId: string, deliveryId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: webhookDeliveryIds.deliveryId })
      .from(webhookDeliveryIds)
      .where(and(eq(webhookDeliveryIds.webhookId, webhookId), eq(webhookDeliveryIds.deliveryId, deliveryId)))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * Claims a provider delivery id for the webhook (ON CONFLICT DO NOTHING): true for the one
   * caller that inserted it, false for every replay, concurrent ones included (on PostgreSQL a
   * second insert waits for the first's transaction and then finds the row).
   */
  async claimDelivery(webhookId: string, deliveryId: string): Promise<boolean> {
    const rows = await this.db
      .insert(webhookDeliveryIds)
      .values({ webhookId, deliveryId })
      .onConflictDoNothing()
      .returning({ id: webhookDeliveryIds.deliveryId });
    return rows.length > 0;
  }

  /** The run did not start: a redelivery with the same id may try again. */
  async releaseDelivery(webhookId: string, deliveryId: string): Promise<void> {
    await this.db
      .delete(webhookDeliveryIds)
      .where(and(eq(webhookDeliveryIds.webhookId, webhookId), eq(webhookDeliveryIds.deliveryId, deliveryId)));
  }

  async deliveries(workspaceId: string, webhookId: string, query: WebhookDeliveryListQuery) {
    return listPage(this.db, webhookDeliveries, {
      workspaceId,
      query,
      where: [
        eq(webhookDeliveries.webhookId, webhookId),
        query.outcome ? eq(webhookDeliveries.outcome, query.outcome) : undefined,
      ],
      sorts: DELIVERY_SORTABLE,
      fallbackSort: webhookDeliveries.receivedAt,
      tiebreak: desc(webhookDeliveries.id),
    });
  }
}
