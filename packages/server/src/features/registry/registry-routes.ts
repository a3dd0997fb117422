import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '@slipway/contracts';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { AccessStore } from '../../platform/auth/access-store-type.js';
import { holds } from '../../platform/auth/grants.js';
import {
  credentialToken,
  isServiceAccountToken,
  serviceAccountIn,
  validServiceAccount,
} from '../../platform/auth/service-account-caller.js';
import { headerValue } from '../../platform/headers.js';
import { BlobTooLarge, DIGEST_RE, type BlobStorage } from './blob-storage.js';
import { checkManifest, MAX_MANIFEST_BYTES } from './manifests.js';
import type { RegistryRepositoryRow, RegistryStore } from './registry-store-type.js';

/** The distribution spec's error codes this registry answers with. */
type ErrorCode =
  | 'BLOB_UNKNOWN'
  | 'BLOB_UPLOAD_INVALID'
  | 'BLOB_UPLOAD_UNKNOWN'
  | 'DIGEST_INVALID'
  | 'MANIFEST_BLOB_UNKNOWN'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_UNKNOWN'
  | 'NAME_INVALID'
  | 'NAME_UNKNOWN'
  | 'SIZE_INVALID'
  | 'TAG_INVALID'
  | 'UNAUTHORIZED'
  | 'DENIED'
  | 'UNSUPPORTED';

class RegistryError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface RegistryRoutesDeps {
  store: RegistryStore;
  blobs: BlobStorage;
  access: AccessStore;
  audit: AuditRecorder;
}

const REALM = 'Basic realm="Slipway registry"';
/** A repository name (distribution's grammar): components of lowercase letters and numbers joined by '.', '_', '__' or '-'. */
const COMPONENT = '[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*';
const NAME_RE = new RegExp(`^${COMPONENT}(?:/${COMPONENT})*$`);
const TAG_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const ROUTE_RE = /^(.+?)\/(blobs\/uploads\/?([^/]*)|blobs\/([^/]+)|manifests\/([^/]+)|tags\/list)$/;

/** Who is calling and which repository of which workspace a request names. */
interface Target {
  workspaceId: string;
  /** the full name, `<workspace>/<path>` */
  name: string;
  /** the name below the workspace */
  path: string;
  actorId: string;
  actorLabel: string;
  organisationId: string;
}

/**
 * The OCI distribution API at `/v2/` (decision 031): images are named
 * `<server>/<workspace id>/<path>` and a service account token, sent as a Basic password, pulls
 * with registries view and pushes with registries edit in that workspace. Pushed manifests and
 * deletions are audited as `registry.push` and `registry.delete`.
 */
export function registryRoutes(deps: RegistryRoutesDeps): FastifyPluginAsync {
  const { store, blobs } = deps;
  return async (app) => {
    await blobs.init();
    // Uploads and manifests are read as streams, whatever they say they are.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.setErrorHandler(async (error, request, reply) => {
      if (error instanceof RegistryError) return sendError(reply, error);
      if (error instanceof BlobTooLarge)
        return sendError(reply, new RegistryError(413, 'SIZE_INVALID', error.message));
      request.log.error({ err: error }, 'registry request failed');
      return reply.code(500).send({ errors: [{ code: 'UNKNOWN', message: 'internal error' }] });
    });

    // Blobs and manifests go as stored: their digests and lengths are of these bytes.
    app.get('/v2/', { compress: false }, async (request, reply) => {
      const token = credentialToken(headerValue(request, 'authorization') ?? undefined);
      const account =
        token && isServiceAccountToken(token) ? await validServiceAccount(deps.access, token) : null;
      if (!account) throw unauthorized();
      return reply.header('docker-distribution-api-version', 'registry/2.0').send({});
    });

    app.route({
      method: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'],
      url: '/v2/*',
      exposeHeadRoute: false,
      compress: false,
      handler: async (request, reply) => {
        reply.header('docker-distribution-api-version', 'registry/2.0');
        const rest = (request.params as { '*': string })['*'];
        const m = ROUTE_RE.exec(rest);
        if (!m) throw new RegistryError(404, 'UNSUPPORTED', 'not a registry API path');
        const name = m[1]!;
        const method = request.method;
        if (m[2]!.startsWith('blobs/uploads')) return uploads(request, reply, name, m[3] || null);
        if (m[4] !== undefined) {
          if (method !== 'GET' && method !== 'HEAD') throw unsupported(method);
          return getBlob(request, reply, await authorise(request, name, 'registries:view'), m[4]);
        }
        if (m[5] !== undefined) return manifests(request, reply, name, m[5]);
        if (method !== 'GET') throw unsupported(method);
        return listTags(request, reply, await authorise(request, name, 'registries:view'));
      },
    });

    async function authorise(request: FastifyRequest, name: string, permission: Permission): Promise<Target> {
      if (!NAME_RE.test(name) || name.length > 255)
        throw new RegistryError(400, 'NAME_INVALID', `${name} is not a valid repository name`);
      const slash = name.indexOf('/');
      if (slash < 0)
        throw new RegistryError(404, 'NAME_UNKNOWN', 'name images <server>/<workspace id>/<name>');
      const token = credentialToken(headerValue(request, 'authorization') ?? undefined);
      if (!token || !isServiceAccountToken(token)) throw unauthorized();
      const workspaceId = name.slice(0, slash);
      const caller = await serviceAccountIn(deps.access, token, workspaceId);
      if (!caller.ok) {
        if (caller.status === 401) throw unauthorized();
        throw new RegistryError(404, 'NAME_UNKNOWN', 'repository name not known to registry');
      }
      if (!holds(caller.grants, permission))
        throw new RegistryError(403, 'DENIED', 'Action not allowed contact Admin');
      const { id, name: label, organisationId } = caller.account;
      return {
        workspaceId,
        name,
        path: name.slice(slash + 1),
        actorId: id,
        actorLabel: label,
        organisationId,
      };
    }

    async function existing(target: Target): Promise<RegistryRepositoryRow> {
      const repo = await store.repository(target.workspaceId, target.path);
      if (!repo) throw new RegistryError(404, 'NAME_UNKNOWN', 'repository name not known to registry');
      return repo;
    }

    async function getBlob(request: FastifyRequest, reply: FastifyReply, target: Target, digest: string) {
      if (!DIGEST_RE.test(digest))
        throw new RegistryError(400, 'DIGEST_INVALID', 'only sha256 digests are taken');
      const repo = await existing(target);
      const size = await store.blob(repo.id, digest);
      if (size === null) throw new RegistryError(404, 'BLOB_UNKNOWN', 'blob unknown to registry');
      reply.headers({
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'docker-content-digest': digest,
      });
      if (request.method === 'HEAD') return reply.send();
      return reply.send(blobs.read(digest));
    }

    async function uploads(request: FastifyRequest, reply: FastifyReply, name: string, id: string | null) {
      const method = request.method;
      const target = await authorise(request, name, method === 'GET' ? 'registries:view' : 'registries:edit');
      const query = request.query as Record<string, string | undefined>;
      const body = request.body as Readable | undefined;
      if (id === null) {
        if (method !== 'POST') throw unsupported(method);
        const repo = await store.ensureRepository(target.workspaceId, target.path);
        if (query.mount && DIGEST_RE.test(query.mount) && query.from) {
          const mounted = await mount(request, repo, query.mount, query.from);
          if (mounted) return created(reply, `/v2/${name}/blobs/${query.mount}`, query.mount);
        }
        const upload = randomUUID();
        await store.createUpload(upload, repo.id);
        if (query.digest) return finish(reply, target, repo, upload, 0, query.digest, body);
        return uploadState(reply.code(202), name, upload, 0);
      }
      const upload = await store.upload(id);
      const repo = await existing(target);
      if (!upload || upload.repositoryId !== repo.id)
        throw new RegistryError(404, 'BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry');
      if (method === 'GET') return uploadState(reply.code(204), name, id, upload.size);
      if (method === 'DELETE') {
        await blobs.discard(id);
        await store.deleteUpload(id);
        return reply.code(204).send();
      }
      if (method === 'PATCH') {
        const range = headerValue(request, 'content-range');
        if (range && Number(range.split('-')[0]) !== upload.size)
          return uploadState(reply.code(416), name, id, upload.size);
        const size = await blobs.append(id, upload.size, body!);
        await store.uploadSize(id, size);
        return uploadState(reply.code(202), name, id, size);
      }
      if (method === 'PUT') {
        if (!query.digest)
          throw new RegistryError(400, 'DIGEST_INVALID', 'the digest query parameter is required');
        return finish(reply, target, repo, id, upload.size, query.digest, body);
      }
      throw unsupported(method);
    }

    /** Links a blob another repository of the same workspace holds; false when it cannot. */
    async function mount(request: FastifyRequest, repo: RegistryRepositoryRow, digest: string, from: string) {
      const fromTarget = await authorise(request, from, 'registries:view').catch(() => null);
      if (!fromTarget || fromTarget.workspaceId !== repo.workspaceId) return false;
      const source = await store.repository(fromTarget.workspaceId, fromTarget.path);
      const size = source ? await store.blob(source.id, digest) : null;
      if (size === null) return false;
      await store.linkBlob(repo.id, digest, size);
      return true;
    }

    async function finish(
      reply: FastifyReply,
      target: Target,
      repo: RegistryRepositoryRow,
      upload: string,
      from: number,
      digest: string,
      body: Readable | undefined,
    ) {
      if (!DIGEST_RE.test(digest))
        throw new RegistryError(400, 'DIGEST_INVALID', 'only sha256 digests are taken');
      const size = body ? await blobs.append(upload, from, body) : from;
      if (!(await blobs.commit(upload, digest))) {
        await blobs.discard(upload);
        await store.deleteUpload(upload);
        throw new RegistryError(400, 'DIGEST_INVALID', 'the uploaded content does not match the digest');
      }
      await store.linkBlob(repo.id, digest, size);
      await store.deleteUpload(upload);
      return created(reply, `/v2/${target.name}/blobs/${digest}`, digest);
    }

    async function manifests(request: FastifyRequest, reply: FastifyReply, name: string, reference: string) {
      const method = request.method;
      const permission =
        method === 'PUT' ? 'registries:edit' : method === 'DELETE' ? 'registries:delete' : 'registries:view';
      const target = await authorise(request, name, permission);
      const byDigest = DIGEST_RE.test(reference);
      if (!byDigest && !TAG_RE.test(reference))
        throw new RegistryError(400, 'TAG_INVALID', `${reference} is not a valid tag or digest`);
      if (method === 'PUT') return putManifest(request, reply, target, reference, byDigest);
      const repo = await existing(target);
      const digest = byDigest ? reference : await store.tag(repo.id, reference);
      const manifest = digest ? await store.manifest(repo.id, digest) : null;
      if (!digest || !manifest)
        throw new RegistryError(404, 'MANIFEST_UNKNOWN', 'manifest unknown to registry');
      if (method === 'DELETE') {
        if (!byDigest) throw new RegistryError(400, 'UNSUPPORTED', 'delete a manifest by its digest');
        await store.deleteManifest(repo.id, digest);
        await audit(request, target, 'registry.delete', { digest }, 202);
        return reply.code(202).send();
      }
      if (method !== 'GET' && method !== 'HEAD') throw unsupported(method);
      reply.headers({
        'content-type': manifest.mediaType,
        'content-length': String(manifest.size),
        'docker-content-digest': digest,
      });
      return method === 'HEAD' ? reply.send() : reply.send(blobs.read(digest));
    }

    async function putManifest(
      request: FastifyRequest,
      reply: FastifyReply,
      target: Target,
      reference: string,
      byDigest: boolean,
    ) {
      const bytes = await readAll(request.body as Readable, MAX_MANIFEST_BYTES);
      const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      if (byDigest && digest !== reference)
        throw new RegistryError(400, 'DIGEST_INVALID', 'the manifest does not match the digest it is put at');
      const contentType = (headerValue(request, 'content-type') ?? '').split(';')[0]!.trim();
      const repo = await store.ensureRepository(target.workspaceId, target.path);
      const checked = await checkManifest(bytes, contentType, {
        blob: (d) => store.blob(repo.id, d),
        manifest: (d) => store.manifest(repo.id, d),
      });
      if (!checked.ok) throw new RegistryError(400, checked.code, checked.message);
      await blobs.put(digest, bytes);
      await store.putManifest(repo.id, digest, checked.mediaType, bytes.length);
      if (!byDigest) await store.setTag(repo.id, reference, digest);
      await audit(request, target, 'registry.push', byDigest ? { digest } : { tag: reference, digest }, 201);
      return created(reply, `/v2/${target.name}/manifests/${digest}`, digest);
    }

    async function listTags(request: FastifyRequest, reply: FastifyReply, target: Target) {
      const repo = await existing(target);
      const query = request.query as { n?: string; last?: string };
      const n = Math.min(Math.max(Number(query.n) || 1000, 1), 1000);
      const tags = await store.tags(repo.id, n + 1, query.last);
      const more = tags.length > n;
      const page = tags.slice(0, n);
      if (more)
        reply.header(
          'link',
          `</v2/${target.name}/tags/list?n=${n}&last=${encodeURIComponent(page[page.length - 1]!)}>; rel="next"`,
        );
      return reply.send({ name: target.name, tags: page });
    }

    async function audit(
      request: FastifyRequest,
      target: Target,
      action: string,
      detail: Record<string, unknown>,
      statusCode: number,
    ) {
      await deps.audit.append({
        organisationId: target.organisationId,
        workspaceId: target.workspaceId,
        actorType: 'service_account',
        actorId: target.actorId,
        actorLabel: target.actorLabel,
        action,
        targetType: 'image',
        targetId: target.name,
        ip: request.ip ?? null,
        userAgent: headerValue(request, 'user-agent'),
        fingerprint: null,
        outcome: 'success',
        statusCode,
        detail: { repository: target.path, ...detail },
      });
    }
  };
}

function unauthorized() {
  return new RegistryError(
    401,
    'UNAUTHORIZED',
    'authentication required: a service account token as the password',
  );
}

function unsupported(method: string) {
  return new RegistryError(405, 'UNSUPPORTED', `${method} is not supported here`);
}

function sendError(reply: FastifyReply, error: RegistryError) {
  if (error.status === 401) reply.header('www-authenticate', REALM);
  return reply.code(error.status).send({ errors: [{ code: error.code, message: error.message }] });
}

function created(reply: FastifyReply, location: string, digest: string) {
  return reply.code(201).headers({ location, 'docker-content-digest': digest, 'content-length': '0' }).send();
}

function uploadState(reply: FastifyReply, name: string, id: string, size: number) {
  return reply
    .headers({
      location: `/v2/${name}/blobs/uploads/${id}`,
      range: `0-${Math.max(size - 1, 0)}`,
      'docker-upload-uuid': id,
      'content-length': '0',
    })
    .send();
}

async function readAll(body: Readable | undefined, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new RegistryError(413, 'SIZE_INVALID', `a manifest may have at most ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
