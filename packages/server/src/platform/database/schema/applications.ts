import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { created, id, parentRef, updated } from './columns.js';
import { environments } from './environments.js';
import { workspaceRef } from './identity.js';
import { pipelines } from './pipelines.js';
import { repositories } from './repositories.js';

/** Applications, the microservices (issue 12): what is built from where and served how. */

export const applications = pgTable(
  'applications',
  {
    id: id(),
    workspaceId: workspaceRef(),
    /** a DNS label: the name of its objects on the clusters and of its deployments' records */
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    repositoryId: text('repository_id').references(() => repositories.id, { onDelete: 'set null' }),
    branch: text('branch').notNull().default('main'),
    /** the image repository its pipeline pushes to, without a tag */
    image: text('image').notNull(),
    pipelineId: text('pipeline_id').references(() => pipelines.id, { onDelete: 'set null' }),
    /** ClusterIP | NodePort | LoadBalancer | Headless */
    serviceType: text('service_type').notNull(),
    port: integer('port').notNull(),
    namespace: text('namespace').notNull(),
    serviceUrl: text('service_url'),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('applications_ws_name').on(t.workspaceId, t.name),
    index('applications_repository').on(t.repositoryId),
  ],
);

/** The environments an application is deployed to. */
export const applicationEnvironments = pgTable(
  'application_environments',
  {
    applicationId: parentRef('application_id', () => applications.id),
    environmentId: parentRef('environment_id', () => environments.id),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.environmentId] })],
);
