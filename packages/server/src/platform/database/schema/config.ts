import { boolean, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { description, timestamps } from './columns.js';
import { nameUniqueInWorkspace, workspaceNamed } from './identity.js';

/** A workspace's configuration for its runs: secrets, config maps and variables (issue 4). */

/** Secrets: encrypted with the master key (AES-256-GCM), never returned after creation. */
export const secrets = pgTable(
  'secrets',
  {
    ...workspaceNamed(),
    description: description(),
    /** generic | registry | git | ssh | token */
    type: text('type').notNull().default('generic'),
    /** a global secret's value applies to every environment */
    global: boolean('global').notNull().default(true),
    /** { key: sealed value } — a secret may hold several keys, like a Kubernetes Secret */
    valuesEncrypted: jsonb('values_encrypted').notNull(),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  nameUniqueInWorkspace('secrets'),
);

/**
 * Plain configuration files for steps, like a Kubernetes ConfigMap: `configMap` workspace bindings,
 * Task volumes, `configMapKeyRef` and `envFrom.configMapRef` read them.
 */
export const configMaps = pgTable(
  'config_maps',
  {
    ...workspaceNamed(),
    description: description(),
    /** { key: text } — each key is a file name when mounted */
    data: jsonb('data').notNull(),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  nameUniqueInWorkspace('config_maps'),
);

/** Plain (non-secret) variables, injected as env into every step of a workspace's runs. */
export const variables = pgTable(
  'variables',
  {
    ...workspaceNamed(),
    value: text('value').notNull(),
    description: description(),
    ...timestamps(),
  },
  nameUniqueInWorkspace('variables'),
);
