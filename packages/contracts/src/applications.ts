import { z } from 'zod';
import { namespaceNameSchema } from './clusters.js';
import { MESSAGES } from './messages.js';
import { listQuerySchema } from './paging.js';
import { branchNameSchema } from './repositories.js';
import { APPLICATION_HEALTH } from './statuses.js';

/**
 * Applications, the microservices (spec §2 "Applications and microservices"; §5 service type,
 * port and namespace messages; §7 `GET /admin/app/k8servicetypes`): a repository and branch, the
 * image the pipeline builds, the pipeline, and how it is served on the clusters of the
 * environments it is deployed to.
 */

/** `GET /admin/app/k8servicetypes` (spec §7, `_end=100`): the Kubernetes Service types an application may use. */
export const K8S_SERVICE_TYPES = [
  {
    id: 1,
    name: 'ClusterIP',
    description: 'Reachable inside the cluster only, at a cluster-internal address',
  },
  {
    id: 2,
    name: 'NodePort',
    description: 'Also reachable on every node’s address, at a port from the node port range',
  },
  {
    id: 3,
    name: 'LoadBalancer',
    description: 'Also reachable from outside through the cloud’s load balancer, where the cluster has one',
  },
  {
    id: 4,
    name: 'Headless',
    description: 'No cluster address: DNS answers with each pod’s address (StatefulSets)',
  },
] as const;
export type K8sServiceTypeName = (typeof K8S_SERVICE_TYPES)[number]['name'];
const SERVICE_TYPE_NAMES = K8S_SERVICE_TYPES.map((t) => t.name) as [
  K8sServiceTypeName,
  ...K8sServiceTypeName[],
];
export const k8sServiceTypeSchema = z.object({ id: z.number(), name: z.string(), description: z.string() });
export const k8sServiceTypeListSchema = z.array(k8sServiceTypeSchema);

/** An application's name becomes its Kubernetes objects' names: a DNS label of at most 53 characters (Helm's limit). */
export const applicationNameSchema = z
  .string({ message: MESSAGES.nameRequired })
  .trim()
  .min(1, MESSAGES.nameRequired)
  .max(53, 'Name must have at most 53 characters')
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, MESSAGES.smallcaseOrNumbers);

/** 'Service Port is Required', 'Service Port must be a number' (spec §5); a TCP port. */
export const servicePortSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? undefined : v),
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? MESSAGES.servicePortRequired : MESSAGES.servicePortNumber,
    })
    .int(MESSAGES.servicePortNumber)
    .min(1, 'Service Port must be between 1 and 65535')
    .max(65535, 'Service Port must be between 1 and 65535'),
);

export const IMAGE_RULE_MESSAGE =
  'Image must be a repository reference without a tag, e.g. registry.example.com/team/orders';
/** Where the pipeline pushes the application's image: `[host[:port]/]path`, lowercase, no tag or digest. */
export const imageRepositorySchema = z
  .string({ message: 'Image is required' })
  .trim()
  .min(1, 'Image is required')
  .max(255, 'Image must have at most 255 characters')
  .regex(
    /^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/,
    IMAGE_RULE_MESSAGE,
  );

const applicationFields = {
  name: applicationNameSchema,
  description: z.string().trim().max(1000, 'Description must have at most 1000 characters').default(''),
  /** a repository of the workspace (`/admin/repository`) */
  repositoryId: z.string().trim().min(1, 'Repository is required').max(100).nullable().default(null),
  branch: branchNameSchema.default('main'),
  image: imageRepositorySchema,
  pipelineId: z.string().trim().min(1).max(100).nullable().default(null),
  serviceType: z.enum(SERVICE_TYPE_NAMES, { message: MESSAGES.serviceTypeRequired }),
  port: servicePortSchema,
  namespace: z
    .string({ message: MESSAGES.namespaceNameRequired })
    .trim()
    .min(1, MESSAGES.namespaceNameRequired)
    .pipe(namespaceNameSchema),
  /** the environments it is deployed to: at least one */
  environmentIds: z
    .array(z.string().trim().min(1).max(100), { message: MESSAGES.environmentRequired })
    .min(1, MESSAGES.environmentRequired)
    .max(50, 'at most 50 environments')
    .transform((ids) => [...new Set(ids)]),
  /** where users reach it, when it has an address outside the cluster */
  serviceUrl: z
    .string()
    .trim()
    .url(MESSAGES.urlHttp)
    .regex(/^https?:\/\//i, MESSAGES.urlHttp)
    .nullable()
    .default(null),
};

export const applicationCreateSchema = z.object(applicationFields);
export type ApplicationCreate = z.input<typeof applicationCreateSchema>;
/** Name and namespace stay: they name the objects on the clusters (spec §5). Omitted fields are kept. */
export const applicationUpdateSchema = z.object({
  name: z.never({ message: MESSAGES.nameOrNamespaceImmutable }).optional(),
  namespace: z.never({ message: MESSAGES.nameOrNamespaceImmutable }).optional(),
  description: z.string().trim().max(1000, 'Description must have at most 1000 characters').optional(),
  repositoryId: applicationFields.repositoryId.unwrap().unwrap().nullable().optional(),
  branch: branchNameSchema.optional(),
  image: imageRepositorySchema.optional(),
  pipelineId: applicationFields.pipelineId.unwrap().unwrap().nullable().optional(),
  serviceType: applicationFields.serviceType.optional(),
  port: servicePortSchema.optional(),
  environmentIds: applicationFields.environmentIds.optional(),
  serviceUrl: applicationFields.serviceUrl.unwrap().unwrap().nullable().optional(),
});
export type ApplicationUpdate = z.input<typeof applicationUpdateSchema>;

export type ApplicationHealth = (typeof APPLICATION_HEALTH)[number];

/** How an application is doing in one of its environments. */
export const applicationEnvironmentSchema = z.object({
  environmentId: z.string(),
  environmentName: z.string(),
  health: z.enum(APPLICATION_HEALTH),
  healthMessage: z.string().nullable(),
  image: z.string().nullable(),
  deployedAt: z.string().nullable(),
  runId: z.string().nullable(),
});

export const applicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  repositoryId: z.string().nullable(),
  repositoryName: z.string().nullable(),
  repositoryUrl: z.string().nullable(),
  branch: z.string(),
  image: z.string(),
  pipelineId: z.string().nullable(),
  pipelineName: z.string().nullable(),
  serviceType: z.enum(SERVICE_TYPE_NAMES),
  port: z.number(),
  namespace: z.string(),
  serviceUrl: z.string().nullable(),
  /** the worst health over its environments; unknown before its first deployment */
  health: z.enum(APPLICATION_HEALTH),
  environments: z.array(applicationEnvironmentSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Application = z.infer<typeof applicationSchema>;
export const applicationListSchema = z.array(applicationSchema);

export const applicationRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  trigger: z.object({ kind: z.string(), id: z.string().optional() }).passthrough(),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export const applicationDetailSchema = applicationSchema.extend({
  /** its pipeline's latest runs, newest first */
  runs: z.array(applicationRunSchema),
  /** the image's tags in Slipway's registry, newest first (empty for an image elsewhere) */
  imageTags: z.array(z.object({ tag: z.string(), digest: z.string(), updatedAt: z.string() })),
});
export type ApplicationDetail = z.infer<typeof applicationDetailSchema>;

export const applicationListQuerySchema = listQuerySchema.safeExtend({
  name: z.string().max(100).optional(),
  environmentId: z.string().max(100).optional(),
});
export type ApplicationListQuery = z.infer<typeof applicationListQuerySchema>;
