import { and, eq, gt, lte, ne } from 'drizzle-orm';
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
  /** Keeps a finished sign-in (sealed) under the hash of its one-time code until it is collected. */
  saveHandoff(codeHash: string, sealed: string, expiresAt: Date): Promise<void>;
  /** The sealed sign-in, removed so it is collected once; null when unknown, used or expired. */
  takeHandoff(codeHash: string): Promise<string | null>;
}

/**
 * A finished sign-in waiting for the web app shares the table of sign-ins in flight (both are
 * short-lived, single-use rows keyed by a random value), marked by this provider name.
 */
const HANDOFF = 'handoff';

/** The unexpired row keyed `state`: a handoff's (`handoff`) or a sign-in's in flight. */
function live(state: string, handoff: boolean) {
  return and(
    eq(oauthStates.state, state),
    handoff ? eq(oauthStates.provider, HANDOFF) : ne(oauthStates.provider, HANDOFF),
    gt(oauthStates.expiresAt, new Date()),
  );
}

export class SqlOidcStateStore implements OidcStateStore {
  constructor(private readonly db: AppDb) {}

  /** Stores the row, first dropping the expired ones (a handoff is stored the same way). */
  async save(s: PendingSignIn) {
    await this.db.delete(oauthStates).where(lte(oauthStates.expiresAt, new Date()));
    await this.db.insert(oauthStates).values(s);
  }

  async consume(state: string): Promise<PendingSignIn | null> {
    const [row] = await this.db.delete(oauthStates).where(live(state, false)).returning();
    return row ?? null;
  }

  async saveHandoff(codeHash: string, sealed: string, expiresAt: Date) {
    await this.save({
      state: codeHash,
      provider: HANDOFF,
      intent: HANDOFF,
      nonce: sealed,
      codeVerifier: '',
      expiresAt,
    });
  }

  async takeHandoff(codeHash: string): Promise<string | null> {
    const [row] = await this.db
      .delete(oauthStates)
      .where(live(codeHash, true))
      .returning({ sealed: oauthStates.nonce });
    return row?.sealed ?? null;
  }

  async verifyByProvider(userId: string) {
    await this.db
      .update(users)
      .set({ emailVerifiedAt: new Date(), passwordHash: null })
      .where(eq(users.id, userId));
  }
}
