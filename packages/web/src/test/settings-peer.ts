import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { forwardFetchTo, startApiPeer, type ApiPeer } from './api-peer';
import { storeSession } from './app';

/** A peer for the settings pages, with an admin signed in before each test. */
export function withSignedInPeer() {
  const ctx = {} as { peer: ApiPeer; token: string };
  let restoreFetch: () => void;
  beforeAll(async () => {
    ctx.peer = await startApiPeer();
  });
  afterAll(() => ctx.peer.close());
  beforeEach(() => {
    restoreFetch = forwardFetchTo(ctx.peer);
    const user = ctx.peer.addUser({ email: `admin-${Math.random()}@example.com`, password: 'Engine#1843' });
    ctx.token = ctx.peer.signIn(user).token;
    storeSession(ctx.token);
  });
  afterEach(() => {
    restoreFetch();
    window.history.pushState({}, '', '/');
  });
  return ctx;
}

export const opts = { timeout: 30_000 };
