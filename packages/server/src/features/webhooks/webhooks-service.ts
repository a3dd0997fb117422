import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_EVENT_RULE_MESSAGE,
  WEBHOOK_RUN_PARAMS,
  webhookEventAllowed,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookDeliveryListQuery,
  type WebhookDeliveryOutcome,
  type WebhookListQuery,
  type WebhookRotate,
  type WebhookType,
  type WebhookUpdate,
  type WebhookWithSecret,
} from '@slipway/contracts';
import { AppError, InputError, NotFoundError } from '../../platform/errors.js';
import { randomToken, type Keys } from '../../platform/keys.js';
import { branchMatches } from './branch-glob.js';
import { readPayload } from './webhook-payload.js';
import { DELIVERY_HEADERS, EVENT_HEADERS, SIGNATURE_HEADERS, verifySignature } from './webhook-signature.js';
import type { DeliveryRow, WebhookRow, WebhookWithPipeline } from './webhooks-store.js';
import type { WebhooksStore } from './webhooks-store-type.js';

/** The answer to a delivery whose provider id already started a run of this webhook. */
export const DUPLICATE_MESSAGE = 'duplicate';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toWebhook(row: WebhookWithPipeline): Webhook {
  return {
    id: row.id,
    pipelineId: row.pipelineId,
    pipelineName: row.pipelineName,
    type: row.type as WebhookType,
    event: row.event,
    branch: row.branch,
    enabled: row.enabled,
    path: `/api/hooks/${row.id}`,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastDeliveryAt: iso(row.lastDeliveryAt),
  };
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    receivedAt: row.receivedAt.toISOString(),
    deliveryId: row.deliveryId,
    event: row.event,
    outcome: row.outcome as WebhookDeliveryOutcome,
    statusCode: row.statusCode,
    message: row.message,
    params: (row.params as Record<string, string> | null) ?? null,
    runId: row.runId,
    payloadBytes: row.payloadBytes,
  };
}

/** What the receiver needs from the rest of the product. */
export interface WebhookRunner {
  /** the param names the pipeline's current version declares */
  declaredParams(workspaceId: string, pipelineId: string): Promise<Set<string>>;
  start(
    workspaceId: string,
    pipelineId: string,
    params: Record<string, string>,
    webhookId: string,
    /** what the delivery says of the code: the run's trigger keeps it */
    code: { commit: string; branch: string; author: string; by: string },
  ): Promise<{ id: string }>;
}

export interface IncomingDelivery {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  contentType: string;
}

export interface Receipt {
  statusCode: number;
  outcome: WebhookDeliveryOutcome;
  message: string;
  deliveryId: string;
  runId: string | null;
  workspaceId: string;
}

function header(headers: IncomingDelivery['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The provider's id of a delivery, the same on a redelivery: GitHub's X-GitHub-Delivery,
 * Bitbucket's X-Request-UUID, GitLab's Idempotency-Key (kept across its retries) or else its
 * X-Gitlab-Event-UUID. Null when the provider sent none.
 */
export function providerDeliveryId(type: WebhookType, headers: IncomingDelivery['headers']): string | null {
  const id =
    (type === 'gitlab' ? header(headers, 'idempotency-key')?.trim() : undefined) ||
    header(headers, DELIVERY_HEADERS[type])?.trim();
  return id ? id.slice(0, 200) : null;
}

/** GitHub may send `application/x-www-form-urlencoded` with the JSON in a `payload` field. */
function parseBody(body: Buffer, contentType: string): unknown {
  const text = body.toString('utf8');
  if (contentType.startsWith('application/x-www-form-urlencoded'))
    return JSON.parse(new URLSearchParams(text).get('payload') ?? '');
  return JSON.parse(text);
}

/**
 * Webhooks: CRUD with the secret sealed at rest and shown only on create and rotate; and the
 * receiver, which checks the provider's signature, filters by event and branch, and starts a run.
 * Every delivery that names a known webhook is logged with its outcome.
 */
export class WebhooksService {
  constructor(
    private readonly store: WebhooksStore,
    private readonly keys: Keys,
    private readonly runner: WebhookRunner,
  ) {}

  async list(workspaceId: string, query: WebhookListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toWebhook), total };
  }

  async get(workspaceId: string, id: string): Promise<Webhook> {
    return toWebhook(await this.require(workspaceId, id));
  }

  async create(
    workspaceId: string,
    input: WebhookCreate,
    createdBy: string | null,
  ): Promise<WebhookWithSecret> {
    await this.requirePipeline(workspaceId, input.pipelineId);
    const secret = input.secret ?? randomToken(32);
    const id = randomUUID();
    await this.store.insert({
      id,
      workspaceId,
      pipelineId: input.pipelineId,
      type: input.type,
      event: input.event,
      branch: input.branch ?? '*',
      secretEncrypted: this.keys.encrypt(secret),
      enabled: input.enabled ?? true,
      createdBy,
    });
    return { ...(await this.get(workspaceId, id)), secret };
  }

  async update(workspaceId: string, id: string, input: WebhookUpdate): Promise<Webhook> {
    const row = await this.require(workspaceId, id);
    if (input.pipelineId !== undefined) await this.requirePipeline(workspaceId, input.pipelineId);
    const type = input.type ?? (row.type as WebhookType);
    const event = input.event ?? row.event;
    if (!webhookEventAllowed(type, event))
      throw new InputError(`event: ${WEBHOOK_EVENT_RULE_MESSAGE}`, [
        { path: 'body.event', message: WEBHOOK_EVENT_RULE_MESSAGE },
      ]);
    await this.store.update(id, {
      ...(input.pipelineId !== undefined ? { pipelineId: input.pipelineId } : {}),
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.event !== undefined ? { event: input.event } : {}),
      ...(input.branch !== undefined ? { branch: input.branch } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    });
    return this.get(workspaceId, id);
  }

  /** A new secret (given or generated); the old one stops working at once. */
  async rotate(workspaceId: string, id: string, input: WebhookRotate): Promise<WebhookWithSecret> {
    await this.require(workspaceId, id);
    const secret = input.secret ?? randomToken(32);
    await this.store.update(id, { secretEncrypted: this.keys.encrypt(secret) });
    return { ...(await this.get(workspaceId, id)), secret };
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.require(workspaceId, id);
    await this.store.delete(id);
  }

  async deliveries(workspaceId: string, id: string, query: WebhookDeliveryListQuery) {
    await this.require(workspaceId, id);
    const { rows, total } = await this.store.deliveries(workspaceId, id, query);
    return { rows: rows.map(toDelivery), total };
  }

  /**
   * One delivery to /api/hooks/:id. Unknown ids answer 404 and are not logged (there is no
   * webhook to log them on). Otherwise: a bad or missing signature answers 401 (rejected); a
   * disabled webhook answers 410 (ignored) once the signature is good; other events, branches and
   * pull request actions answer 202 (ignored, with the reason); GitHub's ping answers 200; a run
   * that cannot start answers 422 (failed); a started run answers 201 (triggered).
   */
  async receive(id: string, incoming: IncomingDelivery): Promise<Receipt> {
    const hook = await this.store.byId(id);
    if (!hook) throw new NotFoundError('Webhook not found');
    const type = hook.type as WebhookType;
    const event = header(incoming.headers, EVENT_HEADERS[type]) ?? null;
    const providerId = providerDeliveryId(type, incoming.headers);
    const log = async (
      statusCode: number,
      outcome: WebhookDeliveryOutcome,
      message: string,
      extra: { params?: Record<string, string>; runId?: string } = {},
    ): Promise<Receipt> => {
      const deliveryId = randomUUID();
      await this.store.addDelivery({
        id: deliveryId,
        webhookId: hook.id,
        workspaceId: hook.workspaceId,
        receivedAt: new Date(),
        deliveryId: providerId,
        event: event?.slice(0, 200) ?? null,
        outcome,
        statusCode,
        message,
        params: extra.params ?? null,
        runId: extra.runId ?? null,
        payloadBytes: incoming.body.length,
      });
      return {
        statusCode,
        outcome,
        message,
        deliveryId,
        runId: extra.runId ?? null,
        workspaceId: hook.workspaceId,
      };
    };

    const check = verifySignature(
      type,
      this.keys.decrypt(hook.secretEncrypted),
      header(incoming.headers, SIGNATURE_HEADERS[type]),
      incoming.body,
    );
    if (!check.ok) return log(401, 'rejected', check.reason);
    if (!hook.enabled) return log(410, 'ignored', 'This webhook is disabled');
    // Only a correctly signed delivery gets here, so a forged id cannot block the real one.
    if (providerId && (await this.store.deliverySeen(hook.id, providerId)))
      return log(200, 'duplicate', DUPLICATE_MESSAGE);
    if (type === 'github' && event === 'ping')
      return log(200, 'ignored', 'Ping received; the webhook is set up');
    if (!event) return log(400, 'rejected', `Missing ${EVENT_HEADERS[type]} header`);
    if (event !== hook.event) return log(202, 'ignored', `Event "${event}" is not "${hook.event}"`);

    let payload: unknown;
    try {
      payload = parseBody(incoming.body, incoming.contentType);
    } catch {
      return log(400, 'rejected', 'The payload is not valid JSON');
    }
    const reading = readPayload(type, event, payload);
    if (reading.kind === 'ignore') return log(202, 'ignored', reading.reason);
    const { info } = reading;
    const found: Record<string, string> = {
      [WEBHOOK_RUN_PARAMS.url]: info.url,
      [WEBHOOK_RUN_PARAMS.revision]: info.revision,
      [WEBHOOK_RUN_PARAMS.branch]: info.branch,
      [WEBHOOK_RUN_PARAMS.author]: info.author,
    };
    if (!branchMatches(hook.branch, info.filterBranch))
      return log(202, 'ignored', `Branch "${info.filterBranch}" does not match "${hook.branch}"`, {
        params: found,
      });

    // One run per provider delivery id: the first to claim it starts the run; a replay that
    // raced it (the same redelivery twice at once) finds the claim and starts nothing.
    if (providerId && !(await this.store.claimDelivery(hook.id, providerId)))
      return log(200, 'duplicate', DUPLICATE_MESSAGE);
    try {
      const declared = await this.runner.declaredParams(hook.workspaceId, hook.pipelineId);
      const params = Object.fromEntries(Object.entries(found).filter(([name]) => declared.has(name)));
      const run = await this.runner.start(hook.workspaceId, hook.pipelineId, params, hook.id, {
        commit: info.revision,
        branch: info.branch,
        author: info.author,
        by: `${hook.type} ${hook.event}`,
      });
      return log(201, 'triggered', `Run started for ${info.branch} at ${info.revision.slice(0, 12)}`, {
        params: found,
        runId: run.id,
      });
    } catch (err) {
      const message =
        err instanceof AppError && err.statusCode < 500 ? err.message : 'The run could not start';
      const detail =
        err instanceof AppError && err.details?.length
          ? `${message}: ${err.details.map((d) => `${d.path} ${d.message}`).join('; ')}`
          : message;
      // no run started: a redelivery with the same id may try again
      if (providerId) await this.store.releaseDelivery(hook.id, providerId);
      return log(422, 'failed', detail.slice(0, 1000), { params: found });
    }
  }

  private async require(workspaceId: string, id: string): Promise<WebhookWithPipeline> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError('Webhook not found');
    return row;
  }

  private async requirePipeline(workspaceId: string, pipelineId: string) {
    const pipeline = await this.store.pipeline(workspaceId, pipelineId);
    if (!pipeline)
      throw new InputError('pipelineId: no such pipeline in this workspace', [
        { path: 'body.pipelineId', message: 'no such pipeline in this workspace' },
      ]);
    return pipeline;
  }
}

export type { WebhookRow };
