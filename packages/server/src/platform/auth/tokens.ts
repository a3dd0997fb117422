import { jwtVerify, SignJWT } from 'jose';
import type { Keys } from '../keys.js';

const ISSUER = 'slipway';
export const SERVICE_ACCOUNT_TOKEN_PREFIX = 'slw_sa_';

/** Signed session tokens: HS256 over a session id; the session row decides whether it still counts. */
export class SessionTokens {
  private readonly key: Uint8Array;
  constructor(keys: Keys) {
    this.key = new Uint8Array(keys.derive('session-tokens'));
  }

  sign(sessionId: string, userId: string, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** The session id, or null when the token is not ours, altered or expired. */
  async verify(token: string): Promise<{ sessionId: string; userId: string } | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      return typeof payload.sid === 'string' && typeof payload.sub === 'string'
        ? { sessionId: payload.sid, userId: payload.sub }
        : null;
    } catch {
      return null;
    }
  }
}

/** The token from an authorization header, with or without "Bearer ". */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const t = header.replace(/^Bearer\s+/i, '').trim();
  return t || null;
}
