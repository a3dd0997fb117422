import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookType } from '@slipway/contracts';

/** The header each provider signs (or authenticates) its deliveries with. */
export const SIGNATURE_HEADERS: Record<WebhookType, string> = {
  github: 'x-hub-signature-256',
  gitlab: 'x-gitlab-token',
  bitbucket: 'x-hub-signature',
};

/** The header each provider names its event in. */
export const EVENT_HEADERS: Record<WebhookType, string> = {
  github: 'x-github-event',
  gitlab: 'x-gitlab-event',
  bitbucket: 'x-event-key',
};

/** The header each provider names one delivery with, when it sends one. */
export const DELIVERY_HEADERS: Record<WebhookType, string> = {
  github: 'x-github-delivery',
  gitlab: 'x-gitlab-event-uuid',
  bitbucket: 'x-request-uuid',
};

/** `sha256=<hex HMAC-SHA256 of the raw body>`, as GitHub and Bitbucket send it. */
export function sign(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Compares digests of both sides, so neither the length nor the content leaks through timing. */
function sameText(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * GitHub: X-Hub-Signature-256 = sha256=HMAC(secret, body); Bitbucket: X-Hub-Signature, the same
 * form; GitLab: X-Gitlab-Token equal to the secret. Every comparison is constant-time.
 */
export function verifySignature(
  type: WebhookType,
  secret: string,
  header: string | undefined,
  body: Buffer,
): SignatureCheck {
  const name = SIGNATURE_HEADERS[type];
  if (!header) return { ok: false, reason: `Missing ${name} header` };
  if (type === 'gitlab')
    return sameText(header, secret) ? { ok: true } : { ok: false, reason: `${name} does not match` };
  if (!/^sha256=[0-9a-f]{64}$/i.test(header))
    return { ok: false, reason: `${name} must be sha256= followed by 64 hex digits` };
  return sameText(header.toLowerCase(), sign(secret, body))
    ? { ok: true }
    : { ok: false, reason: `${name} does not match the payload` };
}
