/**
 * The real Kubernetes v1.31 OpenAPI documents, and the schema look-ups the merge code needs.
 *
 * Usage (helper A, the HTTP layer):
 *   const api = loadOpenApi();            // cached; reads ./openapi/*.json.gz once
 *   GET /openapi/v2                      → api.v2()
 *   GET /openapi/v3                      → api.v3Index()   ({ paths: { "apis/apps/v1": { serverRelativeURL } } })
 *   GET /openapi/v3/apis/apps/v1?hash=…  → api.v3('apis/apps/v1') (undefined → 404); serve with
 *                                          `Cache-Control: public, immutable` when the hash matches
 *   schemaFor('apps/v1', 'Deployment')   → the v2 definition; walk it with fieldSchema/itemSchema,
 *                                          which follow `$ref`s lazily.
 * `validateObject` and `applyDefaults` live in openapi-validate.ts / openapi-defaults.ts (import
 * them from there: they build on this file).
 * Source and licence of the data: openapi/README.md.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  $ref?: string;
  allOf?: Schema[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-unions'?: unknown[];
  [extension: `x-${string}`]: unknown;
}

interface SwaggerV2 {
  swagger: string;
  info: { title: string; version: string };
  paths: Record<string, unknown>;
  definitions: Record<string, Schema>;
}

export interface OpenApi {
  v2(): object;
  v3Index(): object;
  v3(path: string): object | undefined;
}

const dataFile = (name: string) => new URL(`./openapi/${name}`, import.meta.url);
const readGz = <T>(name: string): T =>
  JSON.parse(gunzipSync(readFileSync(dataFile(name))).toString('utf8')) as T;

let cached: (OpenApi & { definitions: Record<string, Schema> }) | undefined;
let v3Docs: Record<string, object> | undefined;

/** The v2 and v3 documents, read once. */
export function loadOpenApi(): OpenApi {
  if (cached) return cached;
  const v2 = readGz<SwaggerV2>('swagger-v1.31.json.gz');
  const docs = () => (v3Docs ??= readGz<Record<string, object>>('v3-v1.31.json.gz'));
  let index: object | undefined;
  cached = {
    definitions: v2.definitions,
    v2: () => v2,
    v3: (path: string) =>
      docs()[
        path
          .split('?')[0]!
          .replace(/^\/+|\/+$/g, '')
          .replace(/^openapi\/v3\//, '')
      ],
    v3Index: () => {
      if (index) return index;
      // The apiserver names each document by the SHA-512 of its JSON, upper-case hex.
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const [path, doc] of Object.entries(docs())) {
        const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
        paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
      }
      index = { paths };
      return index;
    },
  };
  return cached;
}

function definitions(): Record<string, Schema> {
  loadOpenApi();
  return cached!.definitions;
}

const byGvk = new Map<string, string>();

/** The definition name (`io.k8s.api.apps.v1.Deployment`) of a kind, or undefined. */
export function definitionNameFor(apiVersion: string, kind: string): string | undefined {
  const defs = definitions();
  if (byGvk.size === 0) {
    for (const [name, def] of Object.entries(defs)) {
      for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
        const av = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
        // meta/v1 types (Status, DeleteOptions, WatchEvent) carry one gvk per group: the first wins.
        if (!byGvk.has(`${av}|${gvk.kind}`) || name.startsWith('io.k8s.api.'))
          byGvk.set(`${av}|${gvk.kind}`, name);
      }
    }
  }
  return byGvk.get(`${apiVersion}|${kind}`);
}

/** The OpenAPI v2 definition of a kind (its `$ref`s resolved lazily by fieldSchema/itemSchema). */
export function schemaFor(apiVersion: string, kind: string): Schema | undefined {
  const name = definitionNameFor(apiVersion, kind);
  return name ? definitions()[name] : undefined;
}

/** The definition a `$ref` (or a one-element `allOf`, as in v3) points at; the schema itself otherwise. */
export function deref(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; s && i < 16; i++) {
    if (s.$ref) s = definitions()[s.$ref.replace(/^#\/(definitions|components\/schemas)\//, '')];
    else if (s.allOf?.length === 1 && !s.properties) s = s.allOf[0];
    else return s;
  }
  return s;
}

/** The definition name a schema refers to (`io.k8s.api.core.v1.Container`), if any. */
export function refName(schema: Schema | undefined): string | undefined {
  const ref = schema?.$ref ?? schema?.allOf?.[0]?.$ref;
  return ref?.replace(/^#\/(definitions|components\/schemas)\//, '');
}

/** The schema of a property, as declared (extensions such as the patch strategy sit here), or of a map value. */
export function fieldSchema(parent: Schema | undefined, name: string): Schema | undefined {
  const s = deref(parent);
  if (!s) return undefined;
  const declared = s.properties?.[name];
  if (declared) return declared;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** Whether `name` is a declared property (a struct field) rather than a map entry. */
export function isDeclaredField(parent: Schema | undefined, name: string): boolean {
  return Boolean(deref(parent)?.properties?.[name]);
}

export function itemSchema(list: Schema | undefined): Schema | undefined {
  return deref(list)?.items;
}

export type ShapeKind = 'struct' | 'map' | 'list' | 'scalar' | 'untyped';

/**
 * What structured-merge-diff makes of a schema (kube-openapi's schemaconv): a struct (declared
 * properties), a map (additionalProperties), a list with its relationship and keys, a scalar, or
 * untyped (RawExtension, JSON, FieldsV1: deduced from the value).
 */
export interface Shape {
  kind: ShapeKind;
  atomic: boolean;
  /** For lists: 'atomic' | 'set' (associative scalars) | 'map' (associative with keys). */
  listType?: 'atomic' | 'set' | 'map';
  keys?: string[];
}

export function shapeOf(schema: Schema | undefined): Shape {
  const declared = schema ?? {};
  const s = deref(declared) ?? {};
  const type = s.type ?? (s.properties ? 'object' : undefined);
  if (type === 'array') {
    const listType = declared['x-kubernetes-list-type'] ?? s['x-kubernetes-list-type'];
    const mergeKey = declared['x-kubernetes-patch-merge-key'];
    const strategy = declared['x-kubernetes-patch-strategy'] ?? '';
    if (listType === 'map') {
      return {
        kind: 'list',
        atomic: false,
        listType: 'map',
        keys: declared['x-kubernetes-list-map-keys'] ?? (mergeKey ? [mergeKey] : []),
      };
    }
    if (listType === 'set') return { kind: 'list', atomic: false, listType: 'set' };
    if (listType === 'atomic') return { kind: 'list', atomic: true, listType: 'atomic' };
    if (strategy.split(',').includes('merge')) {
      return mergeKey
        ? { kind: 'list', atomic: false, listType: 'map', keys: [mergeKey] }
        : { kind: 'list', atomic: false, listType: 'set' };
    }
    return { kind: 'list', atomic: true, listType: 'atomic' };
  }
  if (type === 'object') {
    const atomic = (declared['x-kubernetes-map-type'] ?? s['x-kubernetes-map-type']) === 'atomic';
    if (s.properties) return { kind: 'struct', atomic };
    if (s.additionalProperties) return { kind: 'map', atomic };
    return { kind: 'untyped', atomic: false };
  }
  if (type === undefined) return { kind: 'untyped', atomic: false };
  return { kind: 'scalar', atomic: true };
}
