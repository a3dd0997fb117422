import type { SchemaHooks } from './context.js';
import { deepMerge, isObject, type KubeObject } from './types.js';

/** Field-manager entries as the apiserver lists them (without field sets: see README.md). */
function entry(
  object: KubeObject,
  manager: string,
  operation: 'Apply' | 'Update',
  subresource?: string,
): unknown[] {
  const fields = (
    (object.metadata.managedFields as
      { manager: string; operation: string; subresource?: string }[] | undefined) ?? []
  ).filter((f) => !(f.manager === manager && f.operation === operation && f.subresource === subresource));
  fields.push({
    manager,
    operation,
    apiVersion: object.apiVersion,
    time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: {},
    ...(subresource ? { subresource } : {}),
  } as never);
  return fields;
}

/** Secret stringData becomes base64 data, as the apiserver's conversion does. */
function secretStringData(object: KubeObject): void {
  if (object.apiVersion !== 'v1' || object.kind !== 'Secret' || !isObject(object.stringData)) return;
  const data = isObject(object.data) ? object.data : {};
  for (const [k, v] of Object.entries(object.stringData)) data[k] = Buffer.from(String(v)).toString('base64');
  object.data = data;
  delete object.stringData;
}

/** Used where no schema module answers: no validation, merge-patch-like strategies. */
export const basicSchema: SchemaHooks = {
  defaults: secretStringData,
  validate: () => ({ errors: [], unknownFields: [] }),
  prune: () => undefined,
  strategicMerge: (original, patch) => deepMerge(original, patch) as KubeObject,
  jsonPatch: () => {
    throw new Error('json patch is not available');
  },
  apply: (live, applied, options) => {
    const out = (live ? deepMerge(live, applied) : applied) as KubeObject;
    out.metadata.managedFields = entry(live ?? applied, options.manager, 'Apply');
    return out;
  },
  recordUpdate: (before, after, options) =>
    entry(before ?? after, options.manager, 'Update', options.subresource),
};
