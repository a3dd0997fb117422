import type { WebhookDeliveryListQuery, WebhookListQuery } from '@slipway/contracts';
import { compareValues, copyOf, withDefaults } from '../../platform/database/fake-rows.js';
import type { webhooks } from '../../platform/database/schema.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import {
  DELIVERY_LOG_KEEP,
  type DeliveryRow,
  type NewDelivery,
  type WebhookRow,
  type WebhookWithPipeline,
} from './webhooks-store.js';
import type { WebhooksStore } from './webhooks-store-type.js';

interface FakePipeline {
  id: string;
  workspaceId: string;
  name: string;
  kind: 'pipeline' | 'template';
}

/**
 * Webhooks, their delivery log and claimed provider delivery ids in memory, as the SQL store
 * keeps them: workspace scoping, the join to the pipeline, paging and sorting (ties by id), the
 * log trimmed to the newest `keep`, and one claim per (webhook, delivery id). Tests add the
 * pipelines with addPipeline.
 */
export class FakeWebhooksStore implements WebhooksStore {
  private readonly hooks = new Map<string, WebhookRow>();
  private deliveryLog: DeliveryRow[] = [];
  private readonly claims = new Set<string>();
  private readonly pipelines = new Map<string, FakePipeline>();

  constructor(private readonly keep = DELIVERY_LOG_KEEP) {}

  addPipeline(pipeline: FakePipeline): void {
    this.pipelines.set(pipeline.id, { ...pipeline });
  }

  async list(workspaceId: string, query: WebhookListQuery) {
    const rows = [...this.hooks.values()].filter(
      (h) => h.workspaceId === workspaceId && (!query.pipelineId || h.pipelineId === query.pipelineId),
    );
    const sorted = [...rows].sort(
      (a, b) =>
        (query._order === 'DESC' ? -1 : 1) * compareValues(a[query._sort], b[query._sort]) ||
        compareValues(a.id, b.id),
    );
    const page = sorted.slice(query._start, query._end).flatMap((h) => this.withPipeline(h) ?? []);
    return { rows: page, total: rows.length };
  }

  async get(workspaceId: string, id: string) {
    const hook = this.hooks.get(id);
    return hook && hook.workspaceId === workspaceId ? this.withPipeline(hook) : null;
  }

  async byId(id: string) {
    const hook = this.hooks.get(id);
    return hook ? copyOf(hook) : null;
  }

  async pipeline(workspaceId: string, id: string) {
    const p = this.pipelines.get(id);
    return p && p.workspaceId === workspaceId && p.kind === 'pipeline' ? { id: p.id, name: p.name } : null;
  }

  async insert(row: typeof webhooks.$inferInsert) {
    if (this.hooks.has(row.id)) throw uniqueViolation('webhooks_pkey');
    const now = new Date();
    this.hooks.set(
      row.id,
      withDefaults<WebhookRow>(
        { branch: '*', enabled: true, createdBy: null, createdAt: now, updatedAt: now, lastDeliveryAt: null },
        copyOf(row),
      ),
    );
  }

  async update(
    id: string,
    patch: Partial<
      Pick<WebhookRow, 'pipelineId' | 'type' | 'event' | 'branch' | 'enabled' | 'secretEncrypted'>
    >,
  ) {
    const hook = this.hooks.get(id);
    if (hook) this.hooks.set(id, { ...hook, ...copyOf(patch), updatedAt: new Date() });
  }

  async delete(id: string) {
    this.hooks.delete(id);
    this.deliveryLog = this.deliveryLog.filter((d) => d.webhookId !== id);
    for (const key of [...this.claims]) if (key.startsWith(`${id}\n`)) this.claims.delete(key);
  }

  async addDelivery(row: NewDelivery) {
    const receivedAt = row.receivedAt ?? new Date();
    this.deliveryLog.push(
      withDefaults<DeliveryRow>(
        { deliveryId: null, event: null, message: '', params: null, runId: null, payloadBytes: 0 },
        { ...copyOf(row), receivedAt },
      ),
    );
    const hook = this.hooks.get(row.webhookId);
    if (hook) hook.lastDeliveryAt = receivedAt;
    const newest = this.deliveryLog
      .filter((d) => d.webhookId === row.webhookId)
      .map((d) => d.receivedAt.getTime())
      .sort((a, b) => b - a);
    const oldestKept = newest[this.keep - 1];
    if (oldestKept !== undefined)
      this.deliveryLog = this.deliveryLog.filter(
        (d) => d.webhookId !== row.webhookId || d.receivedAt.getTime() >= oldestKept,
      );
  }

  async deliverySeen(webhookId: string, deliveryId: string) {
    return this.claims.has(`${webhookId}\n${deliveryId}`);
  }

  async claimDelivery(webhookId: string, deliveryId: string) {
    const key = `${webhookId}\n${deliveryId}`;
    if (this.claims.has(key)) return false;
    this.claims.add(key);
    return true;
  }

  async releaseDelivery(webhookId: string, deliveryId: string) {
    this.claims.delete(`${webhookId}\n${deliveryId}`);
  }

  async deliveries(workspaceId: string, webhookId: string, query: WebhookDeliveryListQuery) {
    const rows = this.deliveryLog.filter(
      (d) =>
        d.workspaceId === workspaceId &&
        d.webhookId === webhookId &&
        (!query.outcome || d.outcome === query.outcome),
    );
    const sorted = [...rows].sort(
      (a, b) =>
        (query._order === 'DESC' ? -1 : 1) * compareValues(a[query._sort], b[query._sort]) ||
        compareValues(b.id, a.id),
    );
    return { rows: sorted.slice(query._start, query._end).map(copyOf), total: rows.length };
  }

  private withPipeline(hook: WebhookRow): WebhookWithPipeline | null {
    const pipeline = this.pipelines.get(hook.pipelineId);
    return pipeline ? { ...copyOf(hook), pipelineName: pipeline.name } : null;
  }
}
