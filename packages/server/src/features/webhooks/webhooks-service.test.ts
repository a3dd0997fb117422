import { describe, expect, it } from 'vitest';
import examples from '@octokit/webhooks-examples';
import { WEBHOOK_RUN_PARAMS, type WebhookDeliveryListQuery, type WebhookListQuery } from '@slipway/contracts';
import { InputError, NotFoundError } from '../../platform/errors.js';
import { Keys } from '../../platform/keys.js';
import { FakeWebhooksStore } from './fake-webhooks-store.js';
import { sign } from './webhook-signature.js';
import { DUPLICATE_MESSAGE, WebhooksService, type WebhookRunner } from './webhooks-service.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const pushes = (
  examples as unknown as Array<{ name: string; examples: Array<Record<string, unknown>> }>
).find((e) => e.name === 'push')!.examples;
const push = JSON.stringify(pushes.find((p) => p.ref === 'refs/heads/master' && !p.deleted));
const listQuery = (q: Partial<WebhookListQuery> = {}): WebhookListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'createdAt',
  _order: 'ASC',
  ...q,
});
const deliveryQuery = (q: Partial<WebhookDeliveryListQuery> = {}): WebhookDeliveryListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'receivedAt',
  _order: 'DESC',
  ...q,
});

function setup(keep?: number) {
  const store = new FakeWebhooksStore(keep);
  store.addPipeline({ id: 'p1', workspaceId: WS, name: 'build', kind: 'pipeline' });
  store.addPipeline({ id: 'tpl', workspaceId: WS, name: 'template', kind: 'template' });
  store.addPipeline({ id: 'theirs', workspaceId: OTHER, name: 'theirs', kind: 'pipeline' });
  const started: Array<{ params: Record<string, string> }> = [];
  const runner: WebhookRunner & { fail?: Error } = {
    declaredParams: async () => new Set([WEBHOOK_RUN_PARAMS.url, WEBHOOK_RUN_PARAMS.branch]),
    start: async (_ws, _p, params) => {
      if (runner.fail) throw runner.fail;
      started.push({ params });
      return { id: `run-${started.length}` };
    },
  };
  const service = new WebhooksService(store, new Keys(Buffer.alloc(32, 3)), runner);
  const deliver = (id: string, secret: string, headers: Record<string, string> = {}, body = push) =>
    service.receive(id, {
      headers: { 'x-github-event': 'push', 'x-hub-signature-256': sign(secret, body), ...headers },
      body: Buffer.from(body),
      contentType: 'application/json',
    });
  return { store, service, runner, started, deliver };
}

describe('WebhooksService over the fake store', () => {
  it('creates a webhook whose secret is shown once and sealed at rest', async () => {
    const { service, store } = setup();
    const hook = await service.create(
      WS,
      { pipelineId: 'p1', type: 'github', event: 'push', secret: 's3cret-value' },
      null,
    );
    expect(hook).toMatchObject({ pipelineName: 'build', branch: '*', enabled: true, secret: 's3cret-value' });
    expect((await store.byId(hook.id))!.secretEncrypted).not.toContain('s3cret-value');
    expect(JSON.stringify(await service.get(WS, hook.id))).not.toContain('s3cret-value');
    const generated = await service.create(
      WS,
      { pipelineId: 'p1', type: 'gitlab', event: 'Push Hook' },
      null,
    );
    expect(generated.secret.length).toBeGreaterThan(20);
  });

  it('only a runnable pipeline of the workspace; an event the provider sends', async () => {
    const { service } = setup();
    for (const pipelineId of ['tpl', 'theirs'])
      await expect(
        service.create(WS, { pipelineId, type: 'github', event: 'push' }, null),
      ).rejects.toMatchObject({
        message: 'pipelineId: no such pipeline in this workspace',
      });
    const hook = await service.create(WS, { pipelineId: 'p1', type: 'github', event: 'push' }, null);
    const err = await service.update(WS, hook.id, { type: 'gitlab' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ details: [{ path: 'body.event' }] });
  });

  it("never shows, changes or deletes another workspace's webhook", async () => {
    const { service } = setup();
    const hook = await service.create(WS, { pipelineId: 'p1', type: 'github', event: 'push' }, null);
    const notFound = new NotFoundError('Webhook not found');
    await expect(service.get(OTHER, hook.id)).rejects.toThrow(notFound);
    await expect(service.update(OTHER, hook.id, { enabled: false })).rejects.toThrow(notFound);
    await expect(service.rotate(OTHER, hook.id, {})).rejects.toThrow(notFound);
    await expect(service.deliveries(OTHER, hook.id, deliveryQuery())).rejects.toThrow(notFound);
    await expect(service.remove(OTHER, hook.id)).rejects.toThrow(notFound);
    expect(await service.list(OTHER, listQuery())).toEqual({ rows: [], total: 0 });
    await service.remove(WS, hook.id);
    await expect(
      service.receive(hook.id, { headers: {}, body: Buffer.from(''), contentType: '' }),
    ).rejects.toThrow(notFound);
  });

  it('starts one run per signed delivery with the declared params, and logs every delivery', async () => {
    const { service, deliver, started } = setup();
    const hook = await service.create(
      WS,
      { pipelineId: 'p1', type: 'github', event: 'push', secret: 'k' },
      null,
    );
    const first = await deliver(hook.id, 'k', { 'x-github-delivery': 'd-1' });
    expect(first).toMatchObject({ statusCode: 201, outcome: 'triggered', runId: 'run-1', workspaceId: WS });
    expect(Object.keys(started[0]!.params).sort()).toEqual(
      [WEBHOOK_RUN_PARAMS.branch, WEBHOOK_RUN_PARAMS.url].sort(),
    );
    expect(await deliver(hook.id, 'k', { 'x-github-delivery': 'd-1' })).toMatchObject({
      statusCode: 200,
      outcome: 'duplicate',
      message: DUPLICATE_MESSAGE,
    });
    expect(await deliver(hook.id, 'wrong')).toMatchObject({ statusCode: 401, outcome: 'rejected' });
    expect(await deliver(hook.id, 'k', { 'x-github-event': 'issues' })).toMatchObject({
      statusCode: 202,
      message: 'Event "issues" is not "push"',
    });
    expect(started).toHaveLength(1);
    const log = await service.deliveries(WS, hook.id, deliveryQuery());
    expect(log.total).toBe(4);
    const rejected = await service.deliveries(WS, hook.id, deliveryQuery({ outcome: 'rejected' }));
    expect(rejected.rows.map((d) => d.statusCode)).toEqual([401]);
    expect((await service.get(WS, hook.id)).lastDeliveryAt).not.toBeNull();
  });

  it('a run that cannot start answers 422 and frees the delivery id for a redelivery', async () => {
    const { service, deliver, runner } = setup();
    const hook = await service.create(
      WS,
      { pipelineId: 'p1', type: 'github', event: 'push', secret: 'k' },
      null,
    );
    runner.fail = new InputError('params invalid', [{ path: 'params.x', message: 'required' }]);
    expect(await deliver(hook.id, 'k', { 'x-github-delivery': 'd-9' })).toMatchObject({
      statusCode: 422,
      outcome: 'failed',
      message: 'params invalid: params.x required',
    });
    runner.fail = new Error('database is down');
    expect((await deliver(hook.id, 'k', { 'x-github-delivery': 'd-9' })).message).toBe(
      'The run could not start',
    );
    runner.fail = undefined;
    expect(await deliver(hook.id, 'k', { 'x-github-delivery': 'd-9' })).toMatchObject({ statusCode: 201 });
  });

  it('a disabled webhook answers 410 once signed; branches are filtered', async () => {
    const { service, deliver } = setup();
    const hook = await service.create(
      WS,
      { pipelineId: 'p1', type: 'github', event: 'push', secret: 'k', branch: 'release/*' },
      null,
    );
    expect(await deliver(hook.id, 'k')).toMatchObject({
      statusCode: 202,
      message: 'Branch "master" does not match "release/*"',
    });
    await service.update(WS, hook.id, { enabled: false });
    expect(await deliver(hook.id, 'k')).toMatchObject({
      statusCode: 410,
      message: 'This webhook is disabled',
    });
  });

  it('keeps only the newest deliveries in the log', async () => {
    const { service, deliver } = setup(2);
    const hook = await service.create(
      WS,
      { pipelineId: 'p1', type: 'github', event: 'push', secret: 'k' },
      null,
    );
    for (const event of ['a', 'b', 'c']) {
      await deliver(hook.id, 'k', { 'x-github-event': event });
      await new Promise((r) => setTimeout(r, 2));
    }
    const log = await service.deliveries(WS, hook.id, deliveryQuery());
    expect(log.rows.map((d) => d.event)).toEqual(['c', 'b']);
  });

  it('rotating the secret stops the old one at once', async () => {
    const { service, deliver } = setup();
    const hook = await service.create(
      WS,
      { pipelineId: 'p1', type: 'github', event: 'push', secret: 'old' },
      null,
    );
    const { secret } = await service.rotate(WS, hook.id, {});
    expect(await deliver(hook.id, 'old')).toMatchObject({ statusCode: 401 });
    expect(await deliver(hook.id, secret)).toMatchObject({ statusCode: 201 });
  });
});
