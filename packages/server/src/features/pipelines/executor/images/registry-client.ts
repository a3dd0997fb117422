import { PullFailure } from './errors.js';
import { basicCredentials, basicHeader, parseWwwAuthenticate, type AuthChallenge } from './credentials.js';
import { isLoopbackHost } from './reference.js';
import type { RegistryAuth } from './types.js';

export interface RegistryClientOptions {
  registry: string;
  repository: string;
  auth?: RegistryAuth;
  insecureRegistries: string[];
  fetch: typeof fetch;
  signal?: AbortSignal;
}

export interface FetchedManifest {
  bytes: Buffer;
  /** the Content-Type the registry answered with */
  contentType: string;
  /** the registry's Docker-Content-Digest header, when it sent one */
  digestHeader?: string;
}

const ERROR_BODY_MAX = 64 * 1024;
const TOKEN_BODY_MAX = 1024 * 1024;

/** Reads a response body, failing past `max` bytes. */
export async function readLimited(res: Response, max: number, what: string): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) {
      await res.body.cancel().catch(() => undefined);
      throw new PullFailure(`${what} is larger than ${max} bytes`, 'UNSUPPORTED');
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** `answered 404 MANIFEST_UNKNOWN manifest unknown` from a registry's error response. */
async function describeAnswer(res: Response): Promise<string> {
  let detail = '';
  try {
    const text = (await readLimited(res, ERROR_BODY_MAX, 'the error body')).toString('utf8');
    try {
      const body = JSON.parse(text) as {
        errors?: { code?: string; message?: string }[];
        error?: string;
        details?: string;
      };
      const errors = Array.isArray(body.errors) ? body.errors : [];
      detail = errors
        .map((e) => [e.code, e.message].filter((s) => typeof s === 'string' && s !== '').join(' '))
        .filter(Boolean)
        .join('; ');
      if (!detail && typeof body.error === 'string')
        detail = [body.error, body.details].filter(Boolean).join(' ');
    } catch {
      detail = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    }
  } catch {
    // the body could not be read; the status says enough
  }
  return `answered ${res.status}${detail ? ` ${detail}` : res.statusText ? ` ${res.statusText}` : ''}`;
}

function describeNetworkError(error: unknown): string {
  const err = error as { cause?: { code?: string; message?: string }; message?: string };
  const cause = err?.cause;
  if (cause?.code)
    return cause.code === cause.message ? cause.code : `${cause.code} ${cause.message ?? ''}`.trim();
  return cause?.message ?? err?.message ?? String(error);
}

/** Speaks the OCI distribution API to one repository of one registry, with token or basic auth. */
export class RegistryClient {
  readonly registry: string;
  readonly repository: string;
  private readonly base: string;
  private readonly options: RegistryClientOptions;
  private authorization: string | undefined;

  constructor(options: RegistryClientOptions) {
    this.options = options;
    this.registry = options.registry;
    this.repository = options.repository;
    const plain = isLoopbackHost(options.registry) || options.insecureRegistries.includes(options.registry);
    this.base = `${plain ? 'http' : 'https'}://${options.registry}/v2/${options.repository}`;
    if (options.auth?.registrytoken) this.authorization = `Bearer ${options.auth.registrytoken}`;
  }

  /** GET (or HEAD) a manifest by tag or digest. HEAD answers only the digest header. */
  async manifest(reference: string, accept: string): Promise<FetchedManifest> {
    const res = await this.request(`${this.base}/manifests/${reference}`, 'GET', { accept });
    const bytes = await readLimited(res, 4 * 1024 * 1024, `the manifest of ${this.repository}:${reference}`);
    return {
      bytes,
      contentType: (res.headers.get('content-type') ?? '').split(';')[0]!.trim(),
      digestHeader: res.headers.get('docker-content-digest') ?? undefined,
    };
  }

  /** The digest a tag points at now, by HEAD; undefined when the registry sends no digest header. */
  async manifestDigest(reference: string, accept: string, signal?: AbortSignal): Promise<string | undefined> {
    const res = await this.request(`${this.base}/manifests/${reference}`, 'HEAD', { accept }, signal);
    await res.body?.cancel().catch(() => undefined);
    return res.headers.get('docker-content-digest') ?? undefined;
  }

  /** A blob's body as a stream (the caller verifies its digest). */
  async blob(digest: string, signal?: AbortSignal): Promise<Response> {
    return this.request(`${this.base}/blobs/${digest}`, 'GET', {}, signal);
  }

  private async request(
    url: string,
    method: 'GET' | 'HEAD',
    headers: Record<string, string>,
    signal = this.options.signal,
  ): Promise<Response> {
    let challenged = false;
    for (;;) {
      const res = await this.send(url, { method, headers: this.withAuth(headers), signal }, this.registry);
      if (res.ok) return res;
      if (res.status === 401 && !challenged) {
        challenged = true;
        const challenge = parseWwwAuthenticate(res.headers.get('www-authenticate'));
        if (challenge && this.canAnswer(challenge)) {
          await res.body?.cancel().catch(() => undefined);
          await this.authenticate(challenge, signal);
          continue;
        }
      }
      const answer =
        method === 'HEAD' ? `answered ${res.status} ${res.statusText}`.trim() : await describeAnswer(res);
      throw new PullFailure(`${this.registry} ${answer}`, 'REGISTRY', { status: res.status });
    }
  }

  private withAuth(headers: Record<string, string>): Record<string, string> {
    return this.authorization ? { ...headers, authorization: this.authorization } : headers;
  }

  private async send(url: string, init: RequestInit, host: string): Promise<Response> {
    try {
      return await this.options.fetch(url, init);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError' || init.signal?.aborted) throw error;
      throw new PullFailure(
        `registry ${host} could not be reached: ${describeNetworkError(error)}`,
        'UNREACHABLE',
        {
          cause: error,
        },
      );
    }
  }

  /** Bearer challenges are answered (anonymously without credentials), basic ones with credentials. */
  private canAnswer(challenge: AuthChallenge): boolean {
    if (challenge.scheme === 'basic') return basicCredentials(this.options.auth) !== undefined;
    return challenge.scheme === 'bearer' && Boolean(challenge.params.realm);
  }

  /** Answers a 401 challenge: basic credentials, or a token from the bearer realm. */
  private async authenticate(challenge: AuthChallenge, signal?: AbortSignal): Promise<void> {
    const creds = basicCredentials(this.options.auth);
    if (challenge.scheme === 'basic') {
      this.authorization = basicHeader(creds!);
      return;
    }
    let realm: URL;
    try {
      realm = new URL(challenge.params.realm ?? '');
    } catch {
      throw new PullFailure(
        `${this.registry} named a token realm that is not a URL: ${challenge.params.realm}`,
        'REGISTRY',
      );
    }
    const plainAllowed = isLoopbackHost(realm.host) || this.options.insecureRegistries.includes(realm.host);
    if (realm.protocol !== 'https:' && !(realm.protocol === 'http:' && plainAllowed)) {
      throw new PullFailure(
        `${this.registry} named a token realm that is not https: ${realm.href}`,
        'REGISTRY',
      );
    }
    const scope = challenge.params.scope ?? `repository:${this.repository}:pull`;
    const service = challenge.params.service;
    let res: Response;
    const identityToken = this.options.auth?.identitytoken;
    if (identityToken) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: identityToken,
        client_id: 'slipway',
        scope,
      });
      if (service) form.set('service', service);
      res = await this.send(realm.href, { method: 'POST', body: form, signal }, realm.host);
    } else {
      if (service) realm.searchParams.set('service', service);
      for (const s of scope.split(' ').filter(Boolean)) realm.searchParams.append('scope', s);
      const headers: Record<string, string> = creds ? { authorization: basicHeader(creds) } : {};
      res = await this.send(realm.href, { method: 'GET', headers, signal }, realm.host);
    }
    if (!res.ok) {
      throw new PullFailure(
        `${this.registry}'s token service ${realm.host} ${await describeAnswer(res)}`,
        'REGISTRY',
        {
          status: res.status,
        },
      );
    }
    let body: { token?: string; access_token?: string } = {};
    try {
      body = JSON.parse(
        (await readLimited(res, TOKEN_BODY_MAX, 'the token answer')).toString('utf8'),
      ) as typeof body;
    } catch (error) {
      if (error instanceof PullFailure) throw error;
    }
    const token = body.token ?? body.access_token;
    if (!token)
      throw new PullFailure(`${this.registry}'s token service ${realm.host} answered no token`, 'REGISTRY');
    this.authorization = `Bearer ${token}`;
  }
}
