/**
 * RFC 6902 JSON patch as the apiserver applies it (gopkg.in/evanphx/json-patch.v4), quirks
 * included: `replace` of a missing object key adds it, negative array indexes count from the end,
 * and the error texts are the library's.
 *
 * Usage (helper A): PATCH with `application/json-patch+json`:
 *   const patched = applyJsonPatch(live, JSON.parse(body));   // PatchError → Status with err.code
 * A body that is not a JSON array answers 400 (`json: cannot unmarshal object into Go value of
 * type jsonpatch.Patch`), as `jsonpatch.DecodePatch` does; `applyJsonPatch` throws that too.
 */
import { PatchError } from './patch-error.js';

export { PatchError } from './patch-error.js';

type Container = Record<string, unknown> | unknown[];

interface Operation {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

const decodeKey = (k: string) => k.replaceAll('~1', '/').replaceAll('~0', '~');
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isContainer(a) && isContainer(b) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const bo = b as Record<string, unknown>;
    return (
      ka.length === Object.keys(bo).length &&
      ka.every((k) => k in bo && equal((a as Record<string, unknown>)[k], bo[k]))
    );
  }
  return false;
}

/** Go's strconv.Atoi: an optional sign and decimal digits. */
function atoi(key: string): number | undefined {
  return /^[+-]?\d+$/.test(key) ? Number(key) : undefined;
}

class Doc {
  constructor(public root: Container) {}

  /** findObject: the container holding the last path segment, and that segment. */
  find(path: string): [Container, string] | undefined {
    const split = path.split('/');
    if (split.length < 2) return undefined;
    let doc: unknown = this.root;
    for (const part of split.slice(1, -1)) {
      const next = get(doc as Container, decodeKey(part));
      if (next instanceof Error || !isContainer(next)) return undefined;
      doc = next;
    }
    return [doc as Container, decodeKey(split[split.length - 1]!)];
  }
}

const invalidIndex = (idx: number) =>
  new Error(`Unable to access invalid index: ${idx}: invalid index referenced`);

function get(c: Container, key: string): unknown {
  if (!Array.isArray(c)) return c[key];
  let idx = atoi(key);
  if (idx === undefined) return new Error(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  if (idx < 0) {
    if (idx < -c.length) return invalidIndex(idx);
    idx += c.length;
  }
  if (idx >= c.length) return invalidIndex(idx);
  return c[idx];
}

function add(c: Container, key: string, value: unknown): Error | undefined {
  if (!Array.isArray(c)) {
    c[key] = value;
    return undefined;
  }
  if (key === '-') {
    c.push(value);
    return undefined;
  }
  let idx = atoi(key);
  if (idx === undefined)
    return new Error(
      `value was not a proper array index: '${key}': strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`,
    );
  const size = c.length + 1;
  if (idx >= size) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) return invalidIndex(idx);
    idx += size;
  }
  c.splice(idx, 0, value);
  return undefined;
}

function remove(c: Container, key: string): Error | undefined {
  if (!Array.isArray(c)) {
    if (!(key in c)) return new Error(`Unable to remove nonexistent key: ${key}: missing value`);
    delete c[key];
    return undefined;
  }
  let idx = atoi(key);
  if (idx === undefined) return new Error(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  if (idx >= c.length) return invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.length) return invalidIndex(idx);
    idx += c.length;
  }
  c.splice(idx, 1);
  return undefined;
}

function set(c: Container, key: string, value: unknown): Error | undefined {
  if (!Array.isArray(c)) {
    c[key] = value;
    return undefined;
  }
  const got = get(c, key);
  if (got instanceof Error) return got;
  let idx = atoi(key)!;
  if (idx < 0) idx += c.length;
  c[idx] = value;
  return undefined;
}

function pathOf(op: Operation, what: 'path' | 'from'): string | undefined {
  const v = op[what];
  return typeof v === 'string' ? v : undefined;
}

function applyOne(doc: Doc, op: Operation): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const fail = (message: string) => {
    throw new PatchError(message, 422);
  };
  const value = op.value === undefined ? null : structuredClone(op.value);
  switch (kind) {
    case 'add': {
      const path = pathOf(op, 'path');
      if (path === undefined) return fail('add operation failed to decode path: missing value');
      const found = doc.find(path);
      if (!found) return fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
      const err = add(found[0], found[1], value);
      if (err) fail(`error in add for path: '${path}': ${err.message}`);
      return;
    }
    case 'remove': {
      const path = pathOf(op, 'path');
      if (path === undefined) return fail('remove operation failed to decode path: missing value');
      const found = doc.find(path);
      if (!found)
        return fail(`remove operation does not apply: doc is missing path: "${path}": missing value`);
      const err = remove(found[0], found[1]);
      if (err) fail(`error in remove for path: '${path}': ${err.message}`);
      return;
    }
    case 'replace': {
      const path = pathOf(op, 'path');
      if (path === undefined)
        return fail('replace operation failed to decode path: operation missing path field: missing value');
      if (path === '') {
        if (!isContainer(value)) return fail('replace operation value must be object or array');
        doc.root = value;
        return;
      }
      const found = doc.find(path);
      if (!found)
        return fail(`replace operation does not apply: doc is missing path: ${path}: missing value`);
      if (Array.isArray(found[0]) && get(found[0], found[1]) instanceof Error) {
        return fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
      }
      const err = set(found[0], found[1], value);
      if (err) fail(`error in remove for path: '${path}': ${err.message}`);
      return;
    }
    case 'move':
    case 'copy': {
      const from = pathOf(op, 'from');
      if (from === undefined)
        return fail(`${kind} operation failed to decode from: operation, missing from field: missing value`);
      const src = doc.find(from);
      if (!src)
        return fail(`${kind} operation does not apply: doc is missing from path: ${from}: missing value`);
      const got = get(src[0], src[1]);
      if (got instanceof Error)
        return fail(
          kind === 'move'
            ? `error in move for path: '${src[1]}': ${got.message}`
            : `error in copy for from: '${from}': ${got.message}`,
        );
      if (kind === 'move') {
        const err = remove(src[0], src[1]);
        if (err) return fail(`error in move for path: '${src[1]}': ${err.message}`);
      }
      const path = pathOf(op, 'path');
      if (path === undefined) return fail(`${kind} operation failed to decode path: missing value`);
      const dst = doc.find(path);
      if (!dst)
        return fail(
          `${kind} operation does not apply: doc is missing destination path: ${path}: missing value`,
        );
      const err = add(dst[0], dst[1], kind === 'copy' ? structuredClone(got ?? null) : (got ?? null));
      if (err)
        fail(
          kind === 'move'
            ? `error in move for path: '${path}': ${err.message}`
            : `error while adding value during copy: ${err.message}`,
        );
      return;
    }
    case 'test': {
      const path = pathOf(op, 'path');
      if (path === undefined)
        return fail('test operation failed to decode path: operation missing path field: missing value');
      if (path === '') {
        if (!equal(doc.root, value)) fail(`testing value ${path} failed: test failed`);
        return;
      }
      const found = doc.find(path);
      if (!found) return fail(`test operation does not apply: is missing path: ${path}: missing value`);
      const got = get(found[0], found[1]);
      if (got instanceof Error) return fail(`error in test for path: '${path}': ${got.message}`);
      if ((got === undefined || got === null) && value === null) return;
      if (!equal(got, value)) fail(`testing value ${path} failed: test failed`);
      return;
    }
    default:
      fail(`Unexpected kind: ${kind}`);
  }
}

const jsonKind = (v: unknown) =>
  Array.isArray(v)
    ? 'array'
    : v === null
      ? 'null'
      : typeof v === 'boolean'
        ? 'bool'
        : typeof v === 'object'
          ? 'object'
          : typeof v;

/** Applies the operations in order to a copy of `doc`; the first that fails throws PatchError. */
export function applyJsonPatch<T extends object>(doc: T, ops: unknown): T {
  if (ops === null) return structuredClone(doc); // `null` decodes to an empty patch
  if (!Array.isArray(ops)) {
    throw new PatchError(
      `json: cannot unmarshal ${jsonKind(ops)} into Go value of type jsonpatch.Patch`,
      400,
    );
  }
  const d = new Doc(structuredClone(doc) as Container);
  for (const op of ops) {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      throw new PatchError(
        `json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`,
        400,
      );
    }
    applyOne(d, op as Operation);
  }
  return d.root as T;
}
