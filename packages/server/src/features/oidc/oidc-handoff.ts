import { loginResponseSchema, OAUTH_HANDOFF_INVALID_MESSAGE, type LoginResponse } from '@slipway/contracts';
import { NotAuthenticatedError } from '../../platform/errors.js';
import { hashToken, randomToken, type Keys } from '../../platform/keys.js';
import type { OidcStateStore } from './oidc-store.js';

/** How long the web app has to collect a finished sign-in. */
export const HANDOFF_TTL_MS = 60_000;

/**
 * Hands a finished OpenID sign-in to the web app without putting the session token in a URL:
 * the callback redirects with a one-time code (in the URL fragment, which browsers never send to
 * a server), and the app exchanges it by POST for the token. Only the code's hash is stored, with
 * the sign-in sealed by the master key; the code works once and for a minute.
 */
export class OidcHandoff {
  constructor(
    private readonly store: OidcStateStore,
    private readonly keys: Keys,
  ) {}

  async issue(login: LoginResponse): Promise<string> {
    const code = randomToken(32);
    await this.store.saveHandoff(
      hashToken(code),
      this.keys.encrypt(JSON.stringify(login)),
      new Date(Date.now() + HANDOFF_TTL_MS),
    );
    return code;
  }

  async redeem(code: string): Promise<LoginResponse> {
    const sealed = await this.store.takeHandoff(hashToken(code));
    if (!sealed) throw new NotAuthenticatedError(OAUTH_HANDOFF_INVALID_MESSAGE);
    return loginResponseSchema.parse(JSON.parse(this.keys.decrypt(sealed)));
  }
}
