import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  registryImageListQuerySchema,
  registryImageListSchema,
  registryInfoSchema,
  registryTagDeleteQuerySchema,
  registryTagListQuerySchema,
  registryTagListSchema,
  type RegistryInfo,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { NotFoundError } from '../../platform/errors.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { routes } from '../../platform/routes.js';
import type { BlobStorage } from './blob-storage.js';
import { imageSizeOf } from './manifests.js';
import type { RegistryStore } from './registry-store-type.js';

export interface RegistryApiDeps {
  store: RegistryStore;
  blobs: BlobStorage;
  /** what the Registries page says of the registry in a workspace */
  info(workspaceId: string): RegistryInfo;
}

/** The path below the workspace a tag route names, from its validated query. */
const imageOf = (query: unknown) => (query as { name: string }).name;

/**
 * The Registries page's view of Slipway's registry (decision 031): where the workspace's images
 * go, its image repositories and their tags, and deleting a tag. Every route reads only the
 * workspace x-workspace-id names; a tag deletion is audited as the registry's own deletions are
 * (`registry.delete` on the image `<workspace>/<path>`), with the tag in its detail.
 */
export function registryApiRoutes(deps: RegistryApiDeps): FastifyPluginAsyncZod {
  const { store, blobs } = deps;
  const existing = async (workspaceId: string, name: string) => {
    const repo = await store.repository(workspaceId, name);
    if (!repo) throw new NotFoundError('Image not found');
    return repo;
  };
  return async (app) => {
    const api = routes(app, ['registry']);
    api.get('/api/registry', {
      summary:
        'Slipway’s registry: its host, the workspace’s prefix, whether it is plain HTTP, how to log in',
      access: inWorkspace('registries:view'),
      response: registryInfoSchema,
      handler: (request) => deps.info(request.workspaceId!),
    });

    resourceRoutes(app, {
      path: '/api/registry/images',
      tags: ['registry'],
      scope: WORKSPACE,
      permission: 'registries',
      audit: 'registry',
      targetType: 'image',
    }).list({
      summary: 'The workspace’s images in Slipway’s registry, with their tag counts and sizes',
      querystring: registryImageListQuerySchema,
      response: registryImageListSchema,
      handler: async (workspaceId, query) => {
        const { prefix } = deps.info(workspaceId);
        const { rows, total } = await store.images(workspaceId, query);
        return {
          rows: rows.map((r) => ({
            name: r.name,
            reference: `${prefix}/${r.name}`,
            tagCount: r.tagCount,
            lastPushedAt: r.lastPushedAt.toISOString(),
            size: r.size,
          })),
          total,
        };
      },
    });

    api.get('/api/registry/images/tags', {
      summary: 'One image’s tags, newest first: the digest, kind and size of the manifest each names',
      access: inWorkspace('registries:view'),
      querystring: registryTagListQuerySchema,
      response: registryTagListSchema,
      handler: async (request) => {
        const repo = await existing(request.workspaceId!, request.query.name);
        const { rows, total } = await store.tagPage(repo.id, request.query);
        const tags = await Promise.all(
          rows.map(async (r) => ({
            tag: r.tag,
            digest: r.digest,
            mediaType: r.mediaType,
            size: imageSizeOf(await blobs.bytes(r.digest)),
            pushedAt: r.pushedAt.toISOString(),
          })),
        );
        return { rows: tags, total };
      },
    });

    api.delete('/api/registry/images/tags', {
      summary: 'Delete one tag of an image; the manifest it named stays, reachable by its digest',
      access: inWorkspace('registries:delete'),
      auditAction: 'registry.delete',
      auditTarget: {
        type: 'image',
        id: (request) => `${request.workspaceId}/${imageOf(request.query)}`,
      },
      querystring: registryTagDeleteQuerySchema,
      status: 204,
      handler: async (request) => {
        const { name, tag } = request.query;
        const repo = await existing(request.workspaceId!, name);
        const digest = await store.deleteTag(repo.id, tag);
        if (!digest) throw new NotFoundError('Tag not found');
        request.audit.detail = { repository: name, tag, digest };
      },
    });
  };
}
