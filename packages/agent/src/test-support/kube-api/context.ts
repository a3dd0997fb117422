import type { Kinds } from './kinds.js';
import type { Logs } from './logs.js';
import type { ObjectStore } from './store.js';
import type { AccessAttributes, KubeObject } from './types.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Schema-driven behaviour: validation, defaulting, patch strategies and field ownership. */
export interface SchemaHooks {
  defaults(object: KubeObject): void;
  /** schema errors, and the paths of fields the schema does not know (`spec.foo`) */
  validate(
    object: KubeObject,
    fieldValidation: FieldValidation,
  ): { errors: { field: string; message: string; reason: string }[]; unknownFields: string[] };
  /** drops the fields the schema does not declare (decoding into the Go types does) */
  prune(object: KubeObject): void;
  strategicMerge(original: KubeObject, patch: unknown, apiVersion: string, kind: string): KubeObject;
  jsonPatch(doc: KubeObject, ops: unknown): KubeObject;
  apply(
    live: KubeObject | undefined,
    applied: KubeObject,
    options: { manager: string; force: boolean; apiVersion: string; kind: string },
  ): KubeObject;
  recordUpdate(
    before: KubeObject | undefined,
    after: KubeObject,
    options: { manager: string; apiVersion: string; subresource?: string },
  ): unknown[];
}

/** What the verbs share: the store, the kinds, logs, schema hooks and the request's user agent. */
export interface ApiContext {
  store: ObjectStore;
  kinds: Kinds;
  logs: Logs;
  schema: SchemaHooks;
  /** wakes the test garbage collector and namespace controller */
  reconcile(): void;
  deny(attrs: AccessAttributes): boolean;
}

/** One request's options and identity. */
export interface RequestInfo {
  query: Record<string, string>;
  userAgent: string;
  /** the Accept header */
  accept: string;
  warnings: string[];
}
