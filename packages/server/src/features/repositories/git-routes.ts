import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DEPLOY_TOKEN_PREFIX, MESSAGES } from '@slipway/contracts';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { AccessStore } from '../../platform/auth/access-store-type.js';
import { holds } from '../../platform/auth/grants.js';
import {
  credentialToken,
  isServiceAccountToken,
  serviceAccountIn,
} from '../../platform/auth/service-account-caller.js';
import { headerValue } from '../../platform/headers.js';
import { hashToken } from '../../platform/keys.js';
import { runGitHttpBackend, type GitCgiOptions } from './git-http-backend.js';
import type { HostedGit } from './hosted-git.js';
import type { RepositoriesStore, RepositoryRow } from './repositories-store-type.js';

/** A push that changed refs of a hosted repository. */
export interface PushEvent {
  workspaceId: string;
  repository: RepositoryRow;
  /** each changed ref: its old and new commit (null where it did not exist or was deleted) */
  changes: Array<{ ref: string; before: string | null; after: string | null }>;
  pusher: string;
}

export interface GitRoutesDeps {
  store: RepositoriesStore;
  git: HostedGit;
  access: AccessStore;
  audit: AuditRecorder;
  backend: Omit<GitCgiOptions, 'projectRoot'>;
  /** told of every push that changed refs, after it is recorded */
  onPush: (event: PushEvent) => void;
}

type Service = 'git-upload-pack' | 'git-receive-pack';

/** Who may do what with one repository, or why not. */
type Caller =
  | {
      ok: true;
      actorType: 'service_account' | 'anonymous';
      actorId: string;
      label: string;
      organisationId: string | null;
    }
  | { ok: false; status: 401 | 403 | 404; message: string };

const REALM = 'Basic realm="Slipway git", charset="UTF-8"';
const REPO_SEGMENT = /^([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)\.git$/;
const WORKSPACE_SEGMENT = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Git's smart HTTP for hosted repositories: `GET /git/<workspace>/<name>.git/info/refs`,
 * `POST …/git-upload-pack` (clone, fetch) and `POST …/git-receive-pack` (push). The caller
 * authenticates with a service account token (repositories view to clone, edit to push) or one
 * of the repository's deploy tokens (read, or write to push), sent as the password. Pushes are
 * audited as `repository.push` with the refs they changed.
 */
export function gitRoutes(deps: GitRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser(
      ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'],
      (_request, payload, done) => done(null, payload),
    );

    const serve = async (request: FastifyRequest, reply: FastifyReply, service: Service, tail: string) => {
      const { workspaceId, repo } = request.params as { workspaceId: string; repo: string };
      const name = REPO_SEGMENT.exec(repo)?.[1];
      if (!WORKSPACE_SEGMENT.test(workspaceId) || !name)
        return reply.code(404).send('Repository not found\n');
      const token = credentialToken(headerValue(request, 'authorization') ?? undefined);
      if (!token) return reply.code(401).header('www-authenticate', REALM).send('Authentication required\n');
      const repository = await deps.store.findByName(workspaceId, name);
      const caller = await authorise(deps, token, workspaceId, repository, service);
      if (!caller.ok) {
        if (caller.status === 401) reply.header('www-authenticate', REALM);
        return reply.code(caller.status).send(`${caller.message}\n`);
      }
      const length = Number(headerValue(request, 'content-length') ?? '0');
      if (length > deps.backend.maxBodyBytes) return reply.code(413).send('The request is too large\n');

      const before = service === 'git-receive-pack' ? await deps.git.refs(workspaceId, name) : null;
      const answer = await runGitHttpBackend(
        {
          method: request.method,
          pathInfo: `/${name}.git${tail}`,
          query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
          contentType: headerValue(request, 'content-type') ?? undefined,
          contentEncoding: headerValue(request, 'content-encoding') ?? undefined,
          gitProtocol: headerValue(request, 'git-protocol') ?? undefined,
          remoteUser: caller.label,
          remoteAddr: request.ip,
          body: request.method === 'POST' ? (request.body as Readable) : null,
        },
        { ...deps.backend, projectRoot: deps.git.projectRoot(workspaceId) },
      );
      reply.code(answer.status).headers({ ...answer.headers, 'cache-control': 'no-cache' });
      if (!before || request.method !== 'POST') return reply.send(answer.body);
      // A push's answer (git's short report) is held until the push is recorded and audited, so
      // a client that saw it succeed finds it in the trail.
      const report: Buffer[] = [];
      for await (const chunk of answer.body) report.push(chunk as Buffer);
      await answer.done;
      await recordPush(deps, request, caller, workspaceId, repository!, before);
      return reply.send(Buffer.concat(report));
    };

    const base = '/git/:workspaceId/:repo';
    // Packs are compressed already: they go as git wrote them.
    const raw = { compress: false } as const;
    app.get(`${base}/info/refs`, raw, async (request, reply) => {
      const service = (request.query as { service?: string }).service;
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack')
        return reply.code(403).send('Only smart HTTP is served: git 1.6.6 or later\n');
      return serve(request, reply, service, '/info/refs');
    });
    app.post(`${base}/git-upload-pack`, raw, (request, reply) =>
      serve(request, reply, 'git-upload-pack', '/git-upload-pack'),
    );
    app.post(`${base}/git-receive-pack`, raw, (request, reply) =>
      serve(request, reply, 'git-receive-pack', '/git-receive-pack'),
    );
  };
}

async function authorise(
  deps: GitRoutesDeps,
  token: string,
  workspaceId: string,
  repository: RepositoryRow | null,
  service: Service,
): Promise<Caller> {
  const now = Date.now();
  const notFound = { ok: false, status: 404, message: 'Repository not found' } as const;
  const refused = {
    ok: false,
    status: 401,
    message: 'The token is not valid, has expired or was revoked',
  } as const;
  const pushing = service === 'git-receive-pack';
  if (token.startsWith(DEPLOY_TOKEN_PREFIX)) {
    const row = await deps.store.tokenByHash(hashToken(token));
    if (!row || row.revokedAt || row.expiresAt.getTime() <= now) return refused;
    // a deploy token opens its own repository only
    if (!repository || repository.kind !== 'hosted' || row.repositoryId !== repository.id) return notFound;
    if (pushing && row.access !== 'write')
      return { ok: false, status: 403, message: 'This deploy token may clone, not push' };
    await deps.store.tokenUsed(row.id, new Date(now));
    return {
      ok: true,
      actorType: 'anonymous',
      actorId: row.id,
      label: `deploy token ${row.name}`,
      organisationId: null,
    };
  }
  if (isServiceAccountToken(token)) {
    const sa = await serviceAccountIn(deps.access, token, workspaceId, now);
    if (!sa.ok) return sa.status === 401 ? refused : notFound;
    if (!repository || repository.kind !== 'hosted') return notFound;
    if (!holds(sa.grants, pushing ? 'repositories:edit' : 'repositories:view'))
      return { ok: false, status: 403, message: MESSAGES.actionNotAllowed };
    const { id, name, organisationId } = sa.account;
    return { ok: true, actorType: 'service_account', actorId: id, label: name, organisationId };
  }
  return {
    ok: false,
    status: 401,
    message: 'Use a service account token or a deploy token of this repository as the password',
  };
}

async function recordPush(
  deps: GitRoutesDeps,
  request: FastifyRequest,
  caller: Extract<Caller, { ok: true }>,
  workspaceId: string,
  repository: RepositoryRow,
  before: Map<string, string>,
): Promise<void> {
  try {
    const after = await deps.git.refs(workspaceId, repository.name);
    const changes: PushEvent['changes'] = [];
    for (const ref of new Set([...before.keys(), ...after.keys()])) {
      const was = before.get(ref) ?? null;
      const now = after.get(ref) ?? null;
      if (was !== now) changes.push({ ref, before: was, after: now });
    }
    if (changes.length === 0) return;
    const at = new Date();
    await deps.store.pushed(repository.id, at);
    await deps.audit.append({
      organisationId: caller.organisationId ?? (await deps.store.organisationOf(workspaceId)),
      workspaceId,
      actorType: caller.actorType,
      actorId: caller.actorId,
      actorLabel: caller.label,
      action: 'repository.push',
      targetType: 'repository',
      targetId: repository.id,
      ip: request.ip ?? null,
      userAgent: headerValue(request, 'user-agent'),
      fingerprint: null,
      outcome: 'success',
      statusCode: 200,
      detail: { name: repository.name, changes },
    });
    deps.onPush({ workspaceId, repository, changes, pusher: caller.label });
  } catch (err) {
    request.log.error({ err, repository: repository.id }, 'a push could not be recorded');
  }
}
