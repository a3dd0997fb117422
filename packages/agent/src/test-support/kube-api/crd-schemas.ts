/**
 * Custom resources served with their CRD's structural schema (apiextensions.k8s.io/v1), as the
 * apiserver serves them: each served version's kind is added, and its objects are validated
 * (types, required fields, enums, int-or-string, nullable), defaulted (`default`) and pruned
 * (fields the schema does not declare, unless `x-kubernetes-preserve-unknown-fields`), with the
 * apiserver's field paths and messages. CEL rules (`x-kubernetes-validations`), formats and
 * conversion between versions are not simulated.
 */
import type { SchemaHooks } from './context.js';
import { clone, isObject, type KindInfo, type KubeObject } from './types.js';

export interface StructuralSchema {
  type?: string;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

interface CrdDocument {
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: { kind: string; plural: string; shortNames?: string[] };
    versions: { name: string; served: boolean; schema?: { openAPIV3Schema?: StructuralSchema } }[];
  };
}

interface Cause {
  field: string;
  message: string;
  reason: string;
}

const quote = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? 'null'));
const typeOf = (v: unknown): string =>
  Array.isArray(v)
    ? 'array'
    : v === null
      ? 'null'
      : Number.isInteger(v)
        ? 'integer'
        : typeof v === 'number'
          ? 'number'
          : typeof v;

function matchesType(value: unknown, s: StructuralSchema): boolean {
  if (s['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  if (!s.type) return true;
  const actual = typeOf(value);
  return actual === s.type || (s.type === 'number' && actual === 'integer');
}

/** The apiserver's validation of a custom resource against its structural schema. */
function validate(value: unknown, s: StructuralSchema, path: string, out: Cause[]): void {
  if (value === null) {
    if (!s.nullable && s.type)
      out.push({
        field: path,
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: "null": ${path} in body must be of type ${s.type}: "null"`,
      });
    return;
  }
  if (!matchesType(value, s)) {
    const want = s['x-kubernetes-int-or-string'] ? 'integer,string' : s.type;
    out.push({
      field: path,
      reason: 'FieldValueTypeInvalid',
      message: `Invalid value: "${typeOf(value)}": ${path} in body must be of type ${want}: "${typeOf(value)}"`,
    });
    return;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    out.push({
      field: path,
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${quote(value)}: supported values: ${s.enum.map(quote).join(', ')}`,
    });
  if (Array.isArray(value) && s.items) value.forEach((v, i) => validate(v, s.items!, `${path}[${i}]`, out));
  if (!isObject(value)) return;
  for (const key of s.required ?? [])
    if (value[key] === undefined)
      out.push({
        field: path ? `${path}.${key}` : key,
        reason: 'FieldValueRequired',
        message: 'Required value',
      });
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const declared =
      s.properties?.[key] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
    if (declared && !(path === '' && key === 'metadata')) validate(child, declared, at, out);
  }
}

/** Removes (or lists) the fields the schema does not declare; fills in `default`s. */
function prune(
  value: unknown,
  s: StructuralSchema | undefined,
  path: string,
  unknown: string[],
  remove: boolean,
): void {
  if (!s || s['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => prune(v, s.items, `${path}[${i}]`, unknown, remove));
    return;
  }
  if (!isObject(value) || s['x-kubernetes-embedded-resource']) return;
  for (const key of Object.keys(value)) {
    if (path === '' && ['apiVersion', 'kind', 'metadata'].includes(key)) continue;
    const at = path ? `${path}.${key}` : key;
    const declared =
      s.properties?.[key] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
    if (declared) prune(value[key], declared, at, unknown, remove);
    else if (s.additionalProperties !== true && (s.properties || s.type === 'object')) {
      unknown.push(at);
      if (remove) delete value[key];
    }
  }
}

function applyDefaults(value: unknown, s: StructuralSchema | undefined): void {
  if (!s) return;
  if (Array.isArray(value)) value.forEach((v) => applyDefaults(v, s.items));
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    if (value[key] === undefined && child.default !== undefined) value[key] = clone(child.default);
    applyDefaults(value[key], child);
  }
}

/** The CRDs a test server serves and their schemas, by apiVersion and kind. */
export class CustomResources {
  private readonly schemas = new Map<string, StructuralSchema>();

  /** The kinds of a CRD's served versions (to add to the server's kinds); remembers their schemas. */
  add(crd: unknown): KindInfo[] {
    const { spec } = crd as CrdDocument;
    const kinds: KindInfo[] = [];
    for (const version of spec.versions) {
      if (!version.served) continue;
      const schema = version.schema?.openAPIV3Schema;
      if (schema) this.schemas.set(`${spec.group}/${version.name} ${spec.names.kind}`, schema);
      kinds.push({
        group: spec.group,
        version: version.name,
        kind: spec.names.kind,
        plural: spec.names.plural,
        namespaced: spec.scope === 'Namespaced',
        ...(spec.names.shortNames ? { shortNames: spec.names.shortNames } : {}),
      });
    }
    return kinds;
  }

  schemaOf(object: KubeObject): StructuralSchema | undefined {
    return this.schemas.get(`${object.apiVersion} ${object.kind}`);
  }

  /** The server's schema hooks, with custom resources validated, pruned and defaulted by their CRD. */
  hooks(base: SchemaHooks): SchemaHooks {
    return {
      ...base,
      validate: (object, fieldValidation) => {
        const s = this.schemaOf(object);
        if (!s) return base.validate(object, fieldValidation);
        const errors: Cause[] = [];
        validate(object, s, '', errors);
        const unknownFields: string[] = [];
        if (fieldValidation !== 'Ignore') prune(clone(object), s, '', unknownFields, false);
        return { errors, unknownFields };
      },
      prune: (object) => {
        const s = this.schemaOf(object);
        if (s) prune(object, s, '', [], true);
        else base.prune(object);
      },
      defaults: (object) => {
        const s = this.schemaOf(object);
        if (s) applyDefaults(object, s);
        else base.defaults(object);
      },
    };
  }
}
