import { jwtVerify, SignJWT } from 'jose';
import type { Keys } from '../keys.js';

const ISSUER = 'slipway';
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * How the session's person proved who they are. An LDAP sign-in is vouched for by one
 * organisation's directory, so that session stays in that organisation (no account switch).
 * Carried in the signed token, so it cannot be changed by the client.
 */
export type SessionOrigin = 'password' | 'ldap';

export interface SessionClaims {
  sessionId: string;
  userId: string;
  origin: SessionOrigin;
}
export const SERVICE_ACCOUNT_TOKEN_PREFIX = 'slw_sa_';

/** Signed session tokens: HS256 over a session id; the session row decides whether it still counts. */
export class SessionTokens {
  private readonly key: Uint8Array;
  constructor(keys: Keys) {
    this.key = new Uint8Array(keys.derive('session-tokens'));
  }

  sign(
    sessionId: string,
    userId: string,
    expiresAt: Date,
    origin: SessionOrigin = 'password',
  ): Promise<string> {
    return new SignJWT(origin === 'password' ? { sid: sessionId } : { sid: sessionId, via: origin })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  // Tokens already verified, with their expiry: a signature check is pure, so its answer can be
  // kept. Whether the session still counts is read from the database on every request anyway.
  private readonly verified = new Map<string, SessionClaims & { expiresAtMs: number }>();

  /** The session id, or null when the token is not ours, altered or expired. */
  async verify(token: string): Promise<SessionClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAtMs > Date.now())
        return { sessionId: known.sessionId, userId: known.userId, origin: known.origin };
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      const claims: SessionClaims = {
        sessionId: payload.sid,
        userId: payload.sub,
        origin: payload.via === 'ldap' ? 'ldap' : 'password',
      };
      this.verified.set(token, { ...claims, expiresAtMs: (payload.exp ?? 0) * 1000 });
      return claims;
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
