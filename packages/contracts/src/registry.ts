import { z } from 'zod';
import { listQuerySchema, pageRules, PAGING, sortOrderSchema } from './paging.js';

/**
 * Slipway's own registry (decision 031) as the Registries page shows it: where the workspace's
 * images go (`GET /api/registry`), its image repositories (`GET /api/registry/images`) and their
 * tags (`GET /api/registry/images/tags?name=…`, `DELETE …?name=…&tag=…`). The images themselves
 * are pushed and pulled through the OCI distribution API at `/v2/`.
 */

/** `GET /api/registry`: where the workspace's images are pushed and how a client logs in. */
export const registryInfoSchema = z.object({
  /** the server's `host[:port]`, what a client logs in to */
  host: z.string(),
  /** `<host>/<workspace id>`: every image of the workspace is named `<prefix>/<path>` */
  prefix: z.string(),
  /** served over plain HTTP: buildah needs `--tls-verify=false`, docker an insecure-registries entry */
  insecure: z.boolean(),
  /** how buildah logs in; the password is a service account token */
  login: z.string(),
});
export type RegistryInfo = z.infer<typeof registryInfoSchema>;

/** A path below the workspace, as distribution names repositories: `orders`, `team/orders`. */
export const registryImageNameSchema = z
  .string({ message: 'name is required' })
  .min(1, 'name is required')
  .max(200, 'name must have at most 200 characters')
  .regex(
    /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/,
    'name must be an image path below the workspace, such as orders or team/orders',
  );

/** A tag as distribution takes it: up to 128 letters, digits, `_`, `.` and `-`, not starting with `.` or `-`. */
export const registryTagNameSchema = z
  .string({ message: 'tag is required' })
  .min(1, 'tag is required')
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/, 'tag must be a tag such as v1 or latest');

/** One image repository of the workspace in Slipway's registry. */
export const registryImageSchema = z.object({
  /** the path below the workspace: `orders`, `team/orders` */
  name: z.string(),
  /** what a client pulls: `<host>/<workspace id>/<name>` */
  reference: z.string(),
  tagCount: z.number(),
  /** when a manifest was last pushed to it (or, before any, when its first blob came) */
  lastPushedAt: z.string(),
  /**
   * bytes of the layers and configs it holds, each counted once; a deleted tag's layers count
   * until they are garbage collected
   */
  size: z.number(),
});
export type RegistryImage = z.infer<typeof registryImageSchema>;
export const registryImageListSchema = z.array(registryImageSchema);

export const REGISTRY_IMAGE_SORTS = ['name', 'tagCount', 'lastPushedAt', 'size'] as const;
export const registryImageListQuerySchema = pageRules(
  listQuerySchema.safeExtend({
    _sort: z.enum(REGISTRY_IMAGE_SORTS).default('name'),
    _order: sortOrderSchema('ASC'),
    /** finds images whose path holds this text */
    name: z.string().max(200).optional(),
  }),
);
export type RegistryImageListQuery = z.infer<typeof registryImageListQuerySchema>;

/** One tag of an image: the manifest it names. */
export const registryTagSchema = z.object({
  tag: z.string(),
  digest: z.string(),
  mediaType: z.string(),
  /** an image's config and layers, in bytes; null for an index (several platforms) */
  size: z.number().nullable(),
  pushedAt: z.string(),
});
export type RegistryTag = z.infer<typeof registryTagSchema>;
export const registryTagListSchema = z.array(registryTagSchema);

/** `GET /api/registry/images/tags`: one image's tags, newest first, a page at a time. */
export const registryTagListQuerySchema = pageRules(
  z.object({
    name: registryImageNameSchema,
    _start: z.coerce.number().int().min(0).default(0),
    _end: z.coerce.number().int().min(0).default(PAGING.repositoryListDefaultEnd),
  }),
);
export type RegistryTagListQuery = z.infer<typeof registryTagListQuerySchema>;

/** `DELETE /api/registry/images/tags`: removes one tag; the manifest it named stays by its digest. */
export const registryTagDeleteQuerySchema = z.object({
  name: registryImageNameSchema,
  tag: registryTagNameSchema,
});
export type RegistryTagDeleteQuery = z.infer<typeof registryTagDeleteQuerySchema>;
