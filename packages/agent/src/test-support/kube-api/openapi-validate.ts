/**
 * What the apiserver refuses in an object, in its words.
 *
 * Usage (helper A), on create/update/patch after defaulting:
 *   const { errors, unknownFields } = validateObject(obj, { fieldValidation });
 *   - an error with reason 'BadRequest' is a decode error (a value of the wrong JSON type, e.g.
 *     `replicas: "three"`): answer 400 BadRequest with `message` as the Status message — the
 *     apiserver fails to decode the body before it validates anything;
 *   - otherwise any errors: answer 422 Invalid with invalidStatus(obj, errors) (causes
 *     `{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }`);
 *   - unknownFields (Strict or Warn only): Strict → 400 with strictDecodingMessage(unknownFields);
 *     Warn → one `Warning: 299 - "unknown field \"spec.foo\""` header each (unknownFieldWarnings).
 *   In every mode the stored object loses its unknown fields: pruneUnknownFields(obj).
 *   On an update, validateUpdate(old, new) adds the immutable-field errors (422 too).
 */
import { deref, fieldSchema, itemSchema, refName, schemaFor, type Schema } from './openapi.js';
import { validateKind, validateKindUpdate, type ValidationError } from './openapi-validate-kinds.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type { ValidationError } from './openapi-validate-kinds.js';
export interface ValidationResult {
  errors: ValidationError[];
  unknownFields: string[];
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// Types that decode from more than one JSON type (custom UnmarshalJSON).
const LENIENT = new Set([
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
]);

/** The Go type name encoding/json prints: `int32`, `string`, `v1.PodTemplateSpec`, `[]v1.Container`, `map[string]string`. */
function goTypeName(schema: Schema | undefined): string {
  const name = refName(schema);
  if (name) return `${name.split('.').slice(-2).join('.')}`;
  const s = deref(schema);
  switch (s?.type) {
    case 'integer':
      return s.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'array':
      return `[]${goTypeName(s.items)}`;
    case 'object':
      return typeof s.additionalProperties === 'object'
        ? `map[string]${goTypeName(s.additionalProperties)}`
        : 'map[string]interface {}';
    default:
      return 'interface {}';
  }
}

function jsonValueKind(v: unknown, wantInteger: boolean): string {
  if (typeof v === 'number') return wantInteger && !Number.isInteger(v) ? `number ${v}` : 'number';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

interface Walk {
  decodeError?: ValidationError;
  unknown: string[];
  prefix: string;
}

/** Walks value against schema; `goPath` has no indexes (encoding/json's Field), `path` has them. */
function walk(
  value: unknown,
  schema: Schema | undefined,
  path: string,
  goPath: string,
  struct: string,
  w: Walk,
): void {
  if (value === null || value === undefined || !schema || w.decodeError) return;
  const name = refName(schema);
  if (name && LENIENT.has(name)) return;
  const s = deref(schema);
  if (!s) return;
  const type = s.type ?? (s.properties ? 'object' : undefined);
  const mismatch = () => {
    const wantInteger = type === 'integer';
    w.decodeError = {
      field: path,
      reason: 'BadRequest',
      message: `${w.prefix}json: cannot unmarshal ${jsonValueKind(value, wantInteger)} into Go struct field ${struct}.${goPath} of type ${goTypeName(schema)}`,
    };
  };
  switch (type) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) mismatch();
      return;
    case 'number':
      if (typeof value !== 'number') mismatch();
      return;
    case 'boolean':
      if (typeof value !== 'boolean') mismatch();
      return;
    case 'string':
      if (typeof value !== 'string') mismatch();
      return;
    case 'array':
      if (!Array.isArray(value)) return mismatch();
      value.forEach((item, i) => walk(item, s.items, `${path}[${i}]`, goPath, struct, w));
      return;
    case 'object': {
      if (!isMap(value)) return mismatch();
      if (s.properties) {
        const inner = name ? name.slice(name.lastIndexOf('.') + 1) : struct;
        for (const [k, v] of Object.entries(value)) {
          const child = s.properties[k];
          const p = path ? `${path}.${k}` : k;
          if (!child) {
            w.unknown.push(p);
            continue;
          }
          walk(v, child, p, goPath ? `${goPath}.${k}` : k, inner, w);
        }
      } else if (typeof s.additionalProperties === 'object') {
        for (const [k, v] of Object.entries(value))
          walk(v, s.additionalProperties, `${path}[${k}]`, goPath, struct, w);
      }
      return;
    }
    default:
      return;
  }
}

export function validateObject(obj: unknown, opts: { fieldValidation: FieldValidation }): ValidationResult {
  if (!isMap(obj))
    return {
      errors: [{ field: '', reason: 'BadRequest', message: "Object 'Kind' is missing in 'null'" }],
      unknownFields: [],
    };
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const schema = schemaFor(apiVersion, kind);
  if (!schema) return { errors: [], unknownFields: [] };
  const version = apiVersion.includes('/') ? apiVersion.split('/')[1] : apiVersion;
  const w: Walk = { unknown: [], prefix: `${kind} in version "${version}" cannot be handled as a ${kind}: ` };
  walk(obj, schema, '', '', kind, w);
  const unknownFields = opts.fieldValidation === 'Ignore' ? [] : w.unknown;
  if (w.decodeError) return { errors: [w.decodeError], unknownFields };
  return { errors: validateKind(obj, apiVersion, kind), unknownFields };
}

/**
 * Update-only validation (immutable fields), to add to validateObject's errors on PUT/PATCH/apply
 * of an existing object: `spec.selector: Invalid value: v1.LabelSelector{…}: field is immutable`.
 */
export function validateUpdate(oldObj: object, newObj: object): ValidationError[] {
  const n = newObj as Record<string, unknown>;
  return validateKindUpdate(oldObj as Record<string, unknown>, n, typeof n.kind === 'string' ? n.kind : '');
}

/** Removes the fields the schema does not declare, as decoding into the Go types does. */
export function pruneUnknownFields(obj: Record<string, unknown>): void {
  const schema = schemaFor(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
  const prune = (value: unknown, s: Schema | undefined) => {
    const name = refName(s);
    if (!s || (name && LENIENT.has(name))) return;
    const d = deref(s);
    if (Array.isArray(value)) value.forEach((item) => prune(item, itemSchema(s)));
    else if (isMap(value) && d?.properties) {
      for (const k of Object.keys(value)) {
        if (!d.properties[k]) delete value[k];
        else prune(value[k], d.properties[k]);
      }
    } else if (isMap(value) && typeof d?.additionalProperties === 'object') {
      for (const v of Object.values(value)) prune(v, fieldSchema(d, ''));
    }
  };
  prune(obj, schema);
}

export const strictDecodingMessage = (unknownFields: string[]): string =>
  `strict decoding error: ${unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`;

export const unknownFieldWarnings = (unknownFields: string[]): string[] =>
  unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);

/** The 422 Status for validation errors: `Deployment.apps "web" is invalid: [spec.selector: Required value, …]`. */
export function invalidStatus(object: object, errors: ValidationError[]) {
  const obj = object as { apiVersion?: unknown; kind?: unknown; metadata?: unknown };
  const apiVersion = String(obj.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
  const kind = String(obj.kind ?? '');
  const name = isMap(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  const qualified = group ? `${kind}.${group}` : kind;
  const lines = errors.map((e) => `${e.field}: ${e.message}`);
  const aggregate = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualified} ${JSON.stringify(name)} is invalid: ${aggregate}`,
    reason: 'Invalid',
    details: {
      name,
      ...(group ? { group } : {}),
      kind,
      causes: errors.map((e) => ({ reason: e.reason, message: e.message, field: e.field })),
    },
    code: 422,
  };
}
