import { randomUUID } from 'node:crypto';
import {
  scheduleCreateSchema,
  scheduleCron,
  scheduleTimingIssues,
  scheduleUpdateSchema,
  webhookCreateSchema,
  webhookEventAllowed,
  webhookUpdateSchema,
  type Schedule,
  type Webhook,
  type WebhookDelivery,
} from '@slipway/contracts';
import { fail, forwardPaths, invalid, page, serveRoutes, type Reply } from '../../test/route-peer';

/**
 * A loopback HTTP peer for the webhooks and schedules pages (test only): `/api/webhooks` with
 * delivery logs and `/api/schedules`, kept in memory, validated with the contracts' schemas and
 * answering in the API's shapes (lists paged with `_start`/`_end` and `X-Total-Count`). The rest
 * of the API is the shared test peer's; `forwardTriggers` sends these paths here.
 */
const AT = '2026-05-01T10:00:00.000Z';

export async function startTriggersPeer(pipelineName: (id: string) => string | undefined) {
  const state = {
    webhooks: [] as Webhook[],
    deliveries: [] as WebhookDelivery[],
    schedules: [] as Schedule[],
    requests: [] as { method: string; path: string; body: unknown }[],
  };

  function route(method: string, path: string, query: URLSearchParams, body: unknown): Reply {
    const parts = path.split('/').filter(Boolean); // api, webhooks, :id, action
    const id = parts[2];
    if (parts[1] === 'webhooks') {
      const hook = state.webhooks.find((w) => w.id === id);
      if (method === 'GET' && !id) return page(state.webhooks, query);
      if (method === 'POST' && !id) {
        const p = webhookCreateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const name = pipelineName(p.data.pipelineId);
        if (!name) return fail(400, 'pipelineId: no such pipeline in this workspace');
        const newId = randomUUID();
        const created: Webhook = {
          id: newId,
          pipelineId: p.data.pipelineId,
          pipelineName: name,
          type: p.data.type,
          event: p.data.event,
          branch: p.data.branch,
          enabled: p.data.enabled,
          path: `/api/hooks/${newId}`,
          createdAt: AT,
          updatedAt: AT,
          lastDeliveryAt: null,
        };
        state.webhooks.push(created);
        return [201, { ...created, secret: `secret-${randomUUID()}` }];
      }
      if (!hook) return fail(404, 'Webhook not found');
      if (method === 'PUT') {
        const p = webhookUpdateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const next = { ...hook, ...p.data };
        if (!webhookEventAllowed(next.type, next.event))
          return fail(400, 'event: Event must be one the provider sends for this type');
        Object.assign(hook, next);
        return [200, hook];
      }
      if (method === 'POST' && parts[3] === 'rotate')
        return [200, { ...hook, secret: `rotated-${randomUUID()}` }];
      if (method === 'DELETE') {
        state.webhooks = state.webhooks.filter((w) => w !== hook);
        return [204];
      }
      if (method === 'GET' && parts[3] === 'deliveries')
        return page(
          state.deliveries.filter((d) => d.webhookId === hook.id),
          query,
        );
    }
    if (parts[1] === 'schedules') {
      const schedule = state.schedules.find((s) => s.id === id);
      if (method === 'GET' && !id) return page(state.schedules, query);
      if (method === 'POST' && !id) {
        const p = scheduleCreateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        if (state.schedules.some((s) => s.name === p.data.name))
          return fail(409, 'A schedule with this name already exists');
        const created: Schedule = {
          id: randomUUID(),
          name: p.data.name,
          pipelineId: p.data.pipelineId,
          pipelineName: pipelineName(p.data.pipelineId) ?? p.data.pipelineId,
          frequency: p.data.frequency,
          minute: p.data.minute ?? null,
          time: p.data.time ?? null,
          dayOfWeek: p.data.dayOfWeek ?? null,
          cron: p.data.cron ?? null,
          expression: scheduleCron(p.data),
          timeZone: p.data.timeZone,
          params: p.data.params,
          timeoutHours: p.data.timeoutHours,
          enabled: p.data.enabled,
          nextRunAt: p.data.enabled ? '2026-05-02T02:00:00.000Z' : null,
          lastRunAt: null,
          lastRunId: null,
          lastError: null,
          createdAt: AT,
          updatedAt: AT,
        };
        state.schedules.push(created);
        return [201, created];
      }
      if (!schedule) return fail(404, 'Schedule not found');
      if (method === 'PUT') {
        const p = scheduleUpdateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const next = {
          ...schedule,
          ...Object.fromEntries(Object.entries(p.data).filter(([, v]) => v !== undefined)),
        };
        const issues = scheduleTimingIssues(next);
        if (issues.length > 0)
          return fail(
            400,
            issues[0]!.message,
            issues.map((i) => ({ ...i, path: `body.${i.path}` })),
          );
        Object.assign(schedule, next, {
          expression: scheduleCron(next),
          nextRunAt: next.enabled ? '2026-05-02T02:00:00.000Z' : null,
        });
        return [200, schedule];
      }
      if (method === 'DELETE') {
        state.schedules = state.schedules.filter((s) => s !== schedule);
        return [204];
      }
    }
    return fail(404, `No route ${method} ${path}`);
  }

  const served = await serveRoutes(state.requests, route);
  return { ...served, state };
}
export type TriggersPeer = Awaited<ReturnType<typeof startTriggersPeer>>;

/** Sends /api/webhooks and /api/schedules to the triggers peer, everything else on as before. */
export function forwardTriggers(peer: TriggersPeer): () => void {
  return forwardPaths(peer.origin, /^\/api\/(webhooks|schedules)(\/|$)/);
}
