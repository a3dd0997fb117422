import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryListQuery, WebhookListQuery } from '@slipway/contracts';
import { contractDatabase, seedOrganisation, seedPipeline } from '../../test-support/store-contract.js';
import { FakeWebhooksStore } from './fake-webhooks-store.js';
import { SqlWebhooksStore as SqlWebhooksStore } from './webhooks-store.js';
import type { WebhooksStore } from './webhooks-store-type.js';

/** The same cases over the fake and the SQL store (decision 030), each keeping 2 deliveries per webhook. */
const database = contractDatabase();
interface Subject {
  store: WebhooksStore;
  addPipeline(p: {
    id: string;
    workspaceId: string;
    name: string;
    kind: 'pipeline' | 'template';
  }): Promise<void>;
}
const implementations: [string, () => Subject][] = [
  [
    'fake',
    () => {
      const store = new FakeWebhooksStore(2);
      return { store, addPipeline: async (p) => store.addPipeline(p) };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlWebhooksStore(database.db(), 2),
      addPipeline: (p) => seedPipeline(database.db(), p),
    }),
  ],
];
const hooks = (q: Partial<WebhookListQuery> = {}): WebhookListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'createdAt',
  _order: 'ASC',
  ...q,
});
const deliveries = (q: Partial<WebhookDeliveryListQuery> = {}): WebhookDeliveryListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'receivedAt',
  _order: 'DESC',
  ...q,
});

describe.each(implementations)('WebhooksStore contract: %s', (_name, make) => {
  let s: Subject;
  let ws: string;
  let other: string;
  const p1 = randomUUID();
  const p2 = randomUUID();
  const ids: string[] = [];
  const add = async (pipelineId: string, event: string, createdAt: Date) => {
    const id = randomUUID();
    await s.store.insert({
      id,
      workspaceId: ws,
      pipelineId,
      type: 'github',
      event,
      secretEncrypted: 'sealed',
      createdAt,
    });
    ids.push(id);
    return id;
  };
  const deliver = (webhookId: string, receivedAt: Date, outcome = 'triggered') =>
    s.store.addDelivery({
      id: randomUUID(),
      webhookId,
      workspaceId: ws,
      receivedAt,
      outcome,
      statusCode: 201,
    });

  beforeAll(async () => {
    s = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
    await s.addPipeline({ id: p1, workspaceId: ws, name: 'build', kind: 'pipeline' });
    await s.addPipeline({ id: p2, workspaceId: ws, name: 'deploy', kind: 'pipeline' });
    await add(p1, 'push', new Date('2026-01-02T00:00:00Z'));
    await add(p2, 'pull_request', new Date('2026-01-01T00:00:00Z'));
  });

  it('reads a webhook with its pipeline’s name and the defaults, in its workspace only', async () => {
    expect(await s.store.get(ws, ids[0]!)).toMatchObject({
      pipelineName: 'build',
      branch: '*',
      enabled: true,
      lastDeliveryAt: null,
    });
    expect(await s.store.get(other, ids[0]!)).toBeNull();
    expect(await s.store.byId(ids[0]!)).toMatchObject({ workspaceId: ws });
    expect(await s.store.pipeline(ws, p1)).toEqual({ id: p1, name: 'build' });
    expect(await s.store.pipeline(other, p1)).toBeNull();
  });

  it('pages, sorts and filters by pipeline, with the total', async () => {
    expect((await s.store.list(ws, hooks())).rows.map((r) => r.event)).toEqual(['pull_request', 'push']);
    expect(await s.store.list(ws, hooks({ pipelineId: p1 }))).toMatchObject({
      total: 1,
      rows: [{ pipelineName: 'build' }],
    });
    expect(
      (await s.store.list(ws, hooks({ _sort: 'event', _order: 'DESC', _end: 1 }))).rows.map((r) => r.event),
    ).toEqual(['push']);
    expect((await s.store.list(other, hooks())).total).toBe(0);
  });

  it('logs deliveries, keeps the newest 2 per webhook and moves lastDeliveryAt', async () => {
    const [a, b] = ids as [string, string];
    await deliver(a, new Date('2026-02-01T00:00:01Z'), 'ignored');
    await deliver(a, new Date('2026-02-01T00:00:02Z'), 'rejected');
    await deliver(b, new Date('2026-02-01T00:00:03Z'));
    await deliver(a, new Date('2026-02-01T00:00:04Z'));
    const log = await s.store.deliveries(ws, a, deliveries());
    expect(log.rows.map((d) => d.outcome)).toEqual(['triggered', 'rejected']);
    expect(log.total).toBe(2);
    expect((await s.store.deliveries(ws, b, deliveries())).total).toBe(1);
    expect((await s.store.deliveries(ws, a, deliveries({ outcome: 'rejected' }))).total).toBe(1);
    expect((await s.store.deliveries(other, a, deliveries())).total).toBe(0);
    expect((await s.store.get(ws, a))!.lastDeliveryAt).toEqual(new Date('2026-02-01T00:00:04Z'));
    expect((await s.store.deliveries(ws, a, deliveries({ _order: 'ASC' }))).rows[0]).toMatchObject({
      message: '',
      payloadBytes: 0,
      params: null,
    });
  });

  it('a provider delivery id is claimed once per webhook until released', async () => {
    const [a, b] = ids as [string, string];
    expect(await s.store.deliverySeen(a, 'd1')).toBe(false);
    expect(await s.store.claimDelivery(a, 'd1')).toBe(true);
    expect(await s.store.claimDelivery(a, 'd1')).toBe(false);
    expect(await s.store.claimDelivery(b, 'd1')).toBe(true);
    expect(await s.store.deliverySeen(a, 'd1')).toBe(true);
    await s.store.releaseDelivery(a, 'd1');
    expect(await s.store.claimDelivery(a, 'd1')).toBe(true);
  });

  it('updates (stamping updatedAt) and deletes', async () => {
    const [a] = ids as [string];
    await s.store.update(a, { enabled: false, branch: 'main' });
    expect(await s.store.byId(a)).toMatchObject({ enabled: false, branch: 'main' });
    await s.store.delete(a);
    expect(await s.store.byId(a)).toBeNull();
    expect((await s.store.deliveries(ws, a, deliveries())).total).toBe(0);
  });
});
