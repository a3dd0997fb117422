import { describe, expect, it } from 'vitest';
import { type Webhook, type WebhookWithSecret } from '@slipway/contracts';
import { webhooksHarness, branchPush, ping } from './webhooks.test-helper.js';
import { SqlWebhooksStore } from './webhooks-store.js';
import { auditEvents, webhooks } from '../../platform/database/schema.js';
import { eq } from 'drizzle-orm';

/** Managing webhooks: create, validate, disable, rotate, delete, the delivery log, tenancy. */
describe('webhooks', () => {
  const w = webhooksHarness();
  const { call, create, github, deliveries } = w;

  it('creates a webhook, shows its secret once and stores it sealed', async () => {
    const hook = await create({ type: 'github', event: 'push', branch: 'master' });
    expect(hook).toMatchObject({
      type: 'github',
      event: 'push',
      branch: 'master',
      enabled: true,
      pipelineName: 'build',
    });
    expect(hook.path).toBe(`/api/hooks/${hook.id}`);
    expect(hook.secret.length).toBeGreaterThanOrEqual(32);
    for (const url of ['/api/webhooks', `/api/webhooks/${hook.id}`]) {
      const got = await call('GET', url, w.owner);
      expect(got.statusCode).toBe(200);
      expect(got.body).not.toContain(hook.secret);
    }
    const [row] = await w.t.db.database.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(JSON.stringify(row)).not.toContain(hook.secret);
    const given = await create({ type: 'gitlab', event: 'Push Hook', secret: 'my-gitlab-token-123456' });
    expect(given.secret).toBe('my-gitlab-token-123456');
  });

  it('refuses bad input naming the field and the rule', async () => {
    const cases: Array<[object, string, string]> = [
      [{ type: 'svn', event: 'push' }, 'body.type', 'Type required'],
      [
        { type: 'github', event: 'Push Hook' },
        'body.event',
        'Event must be one the provider sends for this type',
      ],
      [{ type: 'github', event: 'push', branch: 'main branch' }, 'body.branch', 'Branch may hold'],
      [{ type: 'github', event: 'push', secret: 'short' }, 'body.secret', 'Secret must have 16 to 256'],
    ];
    for (const [body, path, message] of cases) {
      const res = await call('POST', '/api/webhooks', w.owner, { pipelineId: w.pipelineId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const detail = (res.json().details as Array<{ path: string; message: string }>).find(
        (d) => d.path === path,
      );
      expect(detail?.message, res.body).toContain(message);
    }
    const unknown = await call('POST', '/api/webhooks', w.owner, {
      pipelineId: 'nope',
      type: 'github',
      event: 'push',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('pipelineId: no such pipeline in this workspace');
    const { id } = await create({ type: 'github', event: 'push' });
    const mismatch = await call('PUT', `/api/webhooks/${id}`, w.owner, { type: 'bitbucket' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().details[0].path).toBe('body.event');
  });

  it('logs a run that cannot start as failed', async () => {
    const res = await call('POST', '/api/webhooks', w.owner, {
      pipelineId: w.needsImageId,
      type: 'github',
      event: 'push',
    });
    const hook = res.json() as WebhookWithSecret;
    const failed = await github(hook, 'push', branchPush);
    expect(failed.statusCode).toBe(422);
    expect(failed.json().message).toContain('param "image" is required');
    expect((await deliveries(hook.id)).rows[0]).toMatchObject({
      outcome: 'failed',
      statusCode: 422,
      runId: null,
    });
  });

  it('disables (410 to signed deliveries), rotates the secret and deletes', async () => {
    const hook = await create({ type: 'github', event: 'push' });
    const off = await call('PUT', `/api/webhooks/${hook.id}`, w.owner, { enabled: false });
    expect((off.json() as Webhook).enabled).toBe(false);
    expect((await github(hook, 'push', branchPush)).statusCode).toBe(410);
    expect((await github(hook, 'push', branchPush, 'a-wrong-secret-value')).statusCode).toBe(401);
    await call('PUT', `/api/webhooks/${hook.id}`, w.owner, { enabled: true });
    const rotated = await call('POST', `/api/webhooks/${hook.id}/rotate`, w.owner, {});
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json() as WebhookWithSecret;
    expect(next.secret).not.toBe(hook.secret);
    expect((await github(hook, 'push', branchPush)).statusCode).toBe(401);
    expect((await github(next, 'push', branchPush)).statusCode).toBe(201);
    expect((await call('DELETE', `/api/webhooks/${hook.id}`, w.owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/webhooks/${hook.id}`, w.owner)).statusCode).toBe(404);
    expect((await github(next, 'push', branchPush)).statusCode).toBe(404);
  });

  it('pages the delivery log newest first and audits deliveries', async () => {
    const hook = await create({ type: 'github', event: 'push' });
    for (let i = 0; i < 3; i++) await github(hook, 'ping', ping);
    await github(hook, 'push', branchPush, 'wrong-secret-wrong-secret');
    const page = await deliveries(hook.id, '?_start=0&_end=2');
    expect(page.total).toBe(4);
    expect(page.rows).toHaveLength(2);
    expect(page.rows[0]!.outcome).toBe('rejected');
    expect((await deliveries(hook.id, '?outcome=ignored')).total).toBe(3);
    expect(
      (await call('GET', `/api/webhooks/${hook.id}/deliveries?_start=5&_end=1`, w.owner)).statusCode,
    ).toBe(400);
    const audited = await w.t.db.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, hook.id));
    expect(audited.filter((a) => a.action === 'webhook.deliver')).toHaveLength(4);
    expect(audited.find((a) => a.action === 'webhook.create')?.workspaceId).toBe(w.owner.workspaceId);
  });

  it('keeps only the newest deliveries of a webhook', async () => {
    const hook = await create({ type: 'github', event: 'push' });
    const store = new SqlWebhooksStore(w.t.db.database.db, 3);
    for (let i = 0; i < 5; i++)
      await store.addDelivery({
        id: `keep-${i}`,
        webhookId: hook.id,
        workspaceId: w.owner.workspaceId,
        receivedAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        outcome: 'rejected',
        statusCode: 401,
      });
    const { rows, total } = await deliveries(hook.id);
    expect(total).toBe(3);
    expect(rows.map((d) => d.id)).toEqual(['keep-4', 'keep-3', 'keep-2']);
  });

  it("hides another workspace's webhooks", async () => {
    const hook = await create({ type: 'github', event: 'push' });
    expect((await call('GET', `/api/webhooks/${hook.id}`, w.stranger)).statusCode).toBe(404);
    expect((await call('PUT', `/api/webhooks/${hook.id}`, w.stranger, { enabled: false })).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/api/webhooks/${hook.id}/deliveries`, w.stranger)).statusCode).toBe(404);
    expect(
      (
        await call('POST', '/api/webhooks', w.stranger, {
          pipelineId: w.pipelineId,
          type: 'github',
          event: 'push',
        })
      ).statusCode,
    ).toBe(400);
    const list = await call('GET', '/api/webhooks', w.stranger);
    expect(list.json()).toEqual([]);
  });
});
