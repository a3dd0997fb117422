import { and, eq, gt, lte } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { oauthStates, users } from '../../platform/database/schema.js';

export interface PendingSignIn {
  state: string;
  provider: string;
  nonce: string;
  codeVerifier: string;
  intent: string;
  expiresAt: Date;
}

/** Sign-ins in flight between the login URL and the callback. */
export interface OidcStateStore {
  save(s: PendingSignIn): Promise<void>;
  /** The pending sign-in, removed so it can be used once; null when unknown or expired. */
  consume(state: string): Promise<PendingSignIn | null>;
  /** A provider-verified address proves the mailbox: verify it, and drop a password nobody proved. */
  verifyByProvider(userId: string): Promise<void>;
}

export class SqlOidcStateStore implements OidcStateStore {
  constructor(private readonly db: AppDb) {}

  async save(s: PendingSignIn) {
    await this.db.delete(oauthStates).where(lte(oauthStates.expiresAt, new Date()));
    await this.db.insert(oauthStates).values(s);
  }

  async consume(state: string): Promise<PendingSignIn | null> {
    const [row] = await this.db
      .delete(oauthStates)
      .where(and(eq(oauthStates.state, state), gt(oauthStates.expiresAt, new Date())))
      .returning();
    return row ?? null;
  }

  async verifyByProvider(userId: string) {
    await this.db
      .update(users)
      .set({ emailVerifiedAt: new Date(), passwordHash: null })
      .where(eq(users.id, userId));
  }
}
