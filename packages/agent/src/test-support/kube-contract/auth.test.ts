import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realCluster, skipLine, startTarget, type Target } from './harness.js';

/**
 * Contract: a kubeconfig with a bearer token over TLS, as clusters give them. Server-only: against
 * a real cluster (KUBECONFIG set) it is skipped, its credentials being whatever that file holds.
 */
describe.skipIf(skipLine() || !!realCluster)('kubectl with a bearer token over TLS', () => {
  const token = 'contract-token-0123456789';
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ tls: true, token });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('kubectl sends the token over https and is let in; a wrong token gets 401 "You must be logged in"', async () => {
    const kubeconfig = readFileSync(t.kubeconfig, 'utf8');
    expect(kubeconfig).toMatch(/server: https:\/\/127\.0\.0\.1:\d+\n/);
    expect(kubeconfig).toContain(token);
    // kubectl verifies the server's certificate against the kubeconfig's CA, as with kind's.
    expect(kubeconfig).toContain('certificate-authority-data: ');
    expect(kubeconfig).not.toContain('insecure-skip-tls-verify');
    const allowed = await t.kubectl(['get', 'namespace', 'default', '-o', 'name']);
    expect(allowed.stderr).toBe('');
    expect(allowed.stdout).toBe('namespace/default\n');

    const wrong = t.file('wrong-kubeconfig', kubeconfig.replace(token, 'not-the-token'));
    const refused = await t.kubectl(['get', 'namespace', 'default', '--kubeconfig', wrong]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
  });
});
