import type { SchemaHooks } from './context.js';
import { ApplyConflictError, TypedValueError, applyServerSide, recordUpdate } from './field-manager.js';
import { applyJsonPatch } from './json-patch.js';
import { loadOpenApi } from './openapi.js';
import { applyDefaults } from './openapi-defaults.js';
import { validateObject } from './openapi-validate.js';
import { pruneUnknownFields } from './openapi-validate.js';
import { PatchError } from './patch-error.js';
import { strategicMergePatch } from './strategic-merge.js';
import { basicSchema } from './schema-hooks.js';
import { HttpError, type KubeObject } from './types.js';

const PATCH_REASONS = {
  400: 'BadRequest',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  500: 'InternalError',
} as const;

/** Maps the field manager's errors to the apiserver's answers. */
function mapErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ApplyConflictError) {
      throw new HttpError(409, 'Conflict', error.message, { causes: error.causes });
    }
    if (error instanceof TypedValueError) throw new HttpError(500, 'InternalError', error.message);
    if (error instanceof PatchError)
      throw new HttpError(error.code, PATCH_REASONS[error.code], error.message);
    throw error;
  }
}

/** Schema-driven hooks from the Kubernetes v1.31 OpenAPI documents (openapi.ts, field-manager.ts). */
export const openApiSchema: SchemaHooks = {
  ...basicSchema,
  defaults: (object) => {
    basicSchema.defaults(object);
    applyDefaults(object);
  },
  validate: (object, fieldValidation) => validateObject(object, { fieldValidation }),
  prune: (object) => pruneUnknownFields(object),
  strategicMerge: (original, patch, apiVersion, kind) =>
    mapErrors(() => strategicMergePatch(original, patch, apiVersion, kind)),
  jsonPatch: (doc, ops) => mapErrors(() => applyJsonPatch(doc, ops)),
  apply: (live, applied, options) =>
    mapErrors(() => applyServerSide(live, applied, options).object as KubeObject),
  recordUpdate: (before, after, options) =>
    mapErrors(() => recordUpdate(before, after, { ...options, operation: 'Update', kind: after.kind })),
};

/**
 * GET /openapi/v2 (JSON; a client that accepts only protobuf gets 406), /openapi/v3 and
 * /openapi/v3/<group version>.
 */
export function serveOpenApi(pathname: string, accept: string): unknown {
  const api = loadOpenApi();
  if (pathname === '/openapi/v2') {
    if (accept && !/application\/json|\*\/\*/.test(accept)) {
      throw new HttpError(
        406,
        'NotAcceptable',
        `only the following media types are accepted: application/json`,
      );
    }
    return api.v2();
  }
  if (pathname === '/openapi/v3' || pathname === '/openapi/v3/') return api.v3Index();
  if (pathname.startsWith('/openapi/v3/')) return api.v3(pathname.slice('/openapi/v3/'.length));
  return undefined;
}
