import { describe, expect, it } from 'vitest';
import { webhookCreateSchema, WEBHOOK_EVENT_RULE_MESSAGE } from './webhooks.js';

describe('webhook contracts', () => {
  it("keeps a webhook's event to what its provider sends, with branch * by default", () => {
    const ok = webhookCreateSchema.parse({ pipelineId: 'p', type: 'bitbucket', event: 'repo:push' });
    expect(ok).toMatchObject({ branch: '*', enabled: true });
    const bad = webhookCreateSchema.safeParse({ pipelineId: 'p', type: 'gitlab', event: 'push' });
    expect(bad.error!.issues[0]).toMatchObject({ path: ['event'], message: WEBHOOK_EVENT_RULE_MESSAGE });
  });
});
