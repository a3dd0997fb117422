import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZodError } from 'zod';
import {
  scheduleCreateSchema,
  scheduleCron,
  scheduleTimingIssues,
  scheduleUpdateSchema,
  TOTAL_COUNT_HEADER,
  webhookCreateSchema,
  webhookEventAllowed,
  webhookUpdateSchema,
  type Schedule,
  type Webhook,
  type WebhookDelivery,
} from '@slipway/contracts';

/**
 * A loopback HTTP peer for the webhooks and schedules pages (test only): `/api/webhooks` with
 * delivery logs and `/api/schedules`, kept in memory, validated with the contracts' schemas and
 * answering in the API's shapes (lists paged with `_start`/`_end` and `X-Total-Count`). The rest
 * of the API is the shared test peer's; `forwardTriggers` sends these paths here.
 */
type Reply = [number, unknown?, Record<string, string>?];
const AT = '2026-05-01T10:00:00.000Z';

function fail(status: number, message: string, details?: { path: string; message: string }[]): Reply {
  return [status, { statusCode: status, error: 'Error', message, requestId: randomUUID(), details }];
}
function invalid(error: ZodError): Reply {
  const details = error.issues.map((i) => ({ path: `body.${i.path.join('.')}`, message: i.message }));
  return fail(400, `${details[0]?.path}: ${details[0]?.message}`, details);
}
function page<T>(rows: T[], query: URLSearchParams): Reply {
  const start = Number(query.get('_start') ?? 0);
  const end = Number(query.get('_end') ?? 10);
  return [200, rows.slice(start, end), { [TOTAL_COUNT_HEADER]: String(rows.length) }];
}

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

  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      state.requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const [status, answer, headers = {}] = route(req.method ?? 'GET', url.pathname, url.searchParams, body);
      if (answer === undefined) res.writeHead(status, headers).end();
      else
        res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    state,
    calls: (method: string, path: string) =>
      state.requests.filter((r) => r.method === method && r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type TriggersPeer = Awaited<ReturnType<typeof startTriggersPeer>>;

/** fetch as it was before any test forwarded it */
const realFetch = globalThis.fetch;

/** Sends /api/webhooks and /api/schedules to the triggers peer, everything else on as before. */
export function forwardTriggers(peer: TriggersPeer): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (!/^\/api\/(webhooks|schedules)(\/|$)/.test(url.pathname)) return previous(input, init);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    return realFetch(`${peer.origin}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body,
    });
  }) as typeof fetch;
  return () => {
    globalThis.fetch = previous;
  };
}
