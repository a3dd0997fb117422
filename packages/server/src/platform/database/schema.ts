/**
 * The database schema, one file per area under schema/ (decision 022). This barrel re-exports
 * every table: the server imports it and drizzle.config.ts points drizzle-kit at it. The column
 * helpers of schema/columns.ts (id, created, workspaceRef…) are not re-exported.
 */
export * from './schema/system.js';
export * from './schema/identity.js';
export * from './schema/audit.js';
export * from './schema/pipelines.js';
export * from './schema/runs.js';
export * from './schema/logs.js';
export * from './schema/config.js';
export * from './schema/triggers.js';
export * from './schema/clusters.js';
export * from './schema/environments.js';
export * from './schema/onboarding.js';
export * from './schema/repositories.js';
export * from './schema/registry.js';
export * from './schema/applications.js';
