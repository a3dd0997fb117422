/**
 * Enough of the Kubernetes protobuf wire format for client-go's typed clients (helm's release
 * Secrets): the `k8s\0` envelope around a runtime.Unknown, and v1 Secret, SecretList, Status and
 * meta/v1 DeleteOptions with ObjectMeta and ListMeta. Field numbers from k8s.io/api core/v1 and
 * k8s.io/apimachinery meta/v1 and runtime generated.proto. Objects go in and out as the JSON
 * shapes the rest of the server uses (Secret data as base64, times as RFC 3339).
 */

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Scalar = 'string' | 'bytes' | 'int64' | 'int32' | 'bool';
interface Field {
  n: number;
  name: string;
  type: Scalar | 'message' | 'map<string,string>' | 'map<string,bytes>' | 'time' | 'json';
  message?: string;
  repeated?: boolean;
}

const f = (n: number, name: string, type: Field['type'], extra: Partial<Field> = {}): Field => ({
  n,
  name,
  type,
  ...extra,
});

const MESSAGES: Record<string, Field[]> = {
  Unknown: [
    f(1, 'typeMeta', 'message', { message: 'TypeMeta' }),
    f(2, 'raw', 'bytes'),
    f(3, 'contentEncoding', 'string'),
    f(4, 'contentType', 'string'),
  ],
  TypeMeta: [f(1, 'apiVersion', 'string'), f(2, 'kind', 'string')],
  ObjectMeta: [
    f(1, 'name', 'string'),
    f(2, 'generateName', 'string'),
    f(3, 'namespace', 'string'),
    f(4, 'selfLink', 'string'),
    f(5, 'uid', 'string'),
    f(6, 'resourceVersion', 'string'),
    f(7, 'generation', 'int64'),
    f(8, 'creationTimestamp', 'time'),
    f(9, 'deletionTimestamp', 'time'),
    f(10, 'deletionGracePeriodSeconds', 'int64'),
    f(11, 'labels', 'map<string,string>'),
    f(12, 'annotations', 'map<string,string>'),
    f(13, 'ownerReferences', 'message', { message: 'OwnerReference', repeated: true }),
    f(14, 'finalizers', 'string', { repeated: true }),
    f(17, 'managedFields', 'message', { message: 'ManagedFieldsEntry', repeated: true }),
  ],
  OwnerReference: [
    f(5, 'apiVersion', 'string'),
    f(1, 'kind', 'string'),
    f(3, 'name', 'string'),
    f(4, 'uid', 'string'),
    f(6, 'controller', 'bool'),
    f(7, 'blockOwnerDeletion', 'bool'),
  ],
  ManagedFieldsEntry: [
    f(1, 'manager', 'string'),
    f(2, 'operation', 'string'),
    f(3, 'apiVersion', 'string'),
    f(4, 'time', 'time'),
    f(6, 'fieldsType', 'string'),
    f(7, 'fieldsV1', 'json'),
    f(8, 'subresource', 'string'),
  ],
  ListMeta: [
    f(1, 'selfLink', 'string'),
    f(2, 'resourceVersion', 'string'),
    f(3, 'continue', 'string'),
    f(4, 'remainingItemCount', 'int64'),
  ],
  Secret: [
    f(1, 'metadata', 'message', { message: 'ObjectMeta' }),
    f(5, 'immutable', 'bool'),
    f(2, 'data', 'map<string,bytes>'),
    f(4, 'stringData', 'map<string,string>'),
    f(3, 'type', 'string'),
  ],
  SecretList: [
    f(1, 'metadata', 'message', { message: 'ListMeta' }),
    f(2, 'items', 'message', { message: 'Secret', repeated: true }),
  ],
  Status: [
    f(1, 'metadata', 'message', { message: 'ListMeta' }),
    f(2, 'status', 'string'),
    f(3, 'message', 'string'),
    f(4, 'reason', 'string'),
    f(5, 'details', 'message', { message: 'StatusDetails' }),
    f(6, 'code', 'int32'),
  ],
  StatusDetails: [
    f(1, 'name', 'string'),
    f(2, 'group', 'string'),
    f(3, 'kind', 'string'),
    f(6, 'uid', 'string'),
    f(4, 'causes', 'message', { message: 'StatusCause', repeated: true }),
    f(5, 'retryAfterSeconds', 'int32'),
  ],
  StatusCause: [f(1, 'reason', 'string'), f(2, 'message', 'string'), f(3, 'field', 'string')],
  DeleteOptions: [
    f(1, 'gracePeriodSeconds', 'int64'),
    f(2, 'preconditions', 'message', { message: 'Preconditions' }),
    f(3, 'orphanDependents', 'bool'),
    f(4, 'propagationPolicy', 'string'),
    f(5, 'dryRun', 'string', { repeated: true }),
  ],
  Preconditions: [f(1, 'uid', 'string'), f(2, 'resourceVersion', 'string')],
  MapEntry: [f(1, 'key', 'string'), f(2, 'value', 'bytes')],
  Time: [f(1, 'seconds', 'int64'), f(2, 'nanos', 'int32')],
  FieldsV1: [f(1, 'Raw', 'bytes')],
};

/** The kinds whose protobuf this server reads and writes: `apiVersion/kind` → message name. */
const TOP_LEVEL: Record<string, string> = {
  'v1/Secret': 'Secret',
  'v1/SecretList': 'SecretList',
  'v1/Status': 'Status',
  'meta.k8s.io/v1/Status': 'Status',
  'v1/DeleteOptions': 'DeleteOptions',
  'meta.k8s.io/v1/DeleteOptions': 'DeleteOptions',
};

export class ProtobufError extends Error {}

// ---- the wire ----

class Writer {
  private readonly parts: Buffer[] = [];
  varint(value: bigint | number): void {
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      bytes.push(b);
    } while (v > 0n);
    this.parts.push(Buffer.from(bytes));
  }
  tag(n: number, wire: number): void {
    this.varint((n << 3) | wire);
  }
  bytes(n: number, data: Buffer): void {
    this.tag(n, 2);
    this.varint(data.length);
    this.parts.push(data);
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  get more(): boolean {
    return this.pos < this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new ProtobufError('unexpected EOF');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes(): Buffer {
    const len = Number(this.varint());
    if (this.pos + len > this.buf.length) throw new ProtobufError('unexpected EOF');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new ProtobufError(`unsupported wire type ${wire}`);
  }
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function timeToMessage(value: unknown): Buffer {
  const ms = Date.parse(String(value));
  const w = new Writer();
  w.tag(1, 0);
  w.varint(Math.floor(ms / 1000));
  return w.done();
}

function timeFromMessage(buf: Buffer): string {
  const t = decodeMessage('Time', buf) as { seconds?: number; nanos?: number };
  return new Date((t.seconds ?? 0) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Encodes a JSON-shaped value as the named message. */
export function encodeMessage(name: string, value: Record<string, unknown>): Buffer {
  const w = new Writer();
  for (const field of MESSAGES[name]!) {
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    const values = field.repeated ? (Array.isArray(v) ? v : []) : [v];
    for (const item of values) writeField(w, field, item);
  }
  return w.done();
}

function writeField(w: Writer, field: Field, v: unknown): void {
  switch (field.type) {
    case 'string':
      return w.bytes(field.n, Buffer.from(String(v)));
    case 'bytes':
      return w.bytes(field.n, Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'base64'));
    case 'int64':
    case 'int32':
      w.tag(field.n, 0);
      return w.varint(BigInt(Math.trunc(Number(v))));
    case 'bool':
      w.tag(field.n, 0);
      return w.varint(v ? 1 : 0);
    case 'time':
      return w.bytes(field.n, timeToMessage(v));
    case 'json':
      return w.bytes(field.n, encodeMessage('FieldsV1', { Raw: Buffer.from(JSON.stringify(v)) }));
    case 'message':
      return w.bytes(field.n, encodeMessage(field.message!, isObj(v) ? v : {}));
    case 'map<string,string>':
    case 'map<string,bytes>':
      for (const [key, value] of Object.entries(isObj(v) ? v : {})) {
        const entry = new Writer();
        entry.bytes(1, Buffer.from(key));
        entry.bytes(
          2,
          field.type === 'map<string,bytes>'
            ? Buffer.from(String(value), 'base64')
            : Buffer.from(String(value)),
        );
        w.bytes(field.n, entry.done());
      }
  }
}

/** Decodes the named message into its JSON shape. */
export function decodeMessage(name: string, buf: Buffer): Record<string, unknown> {
  const fields = MESSAGES[name]!;
  const out: Record<string, unknown> = {};
  const r = new Reader(buf);
  while (r.more) {
    const key = Number(r.varint());
    const n = key >> 3;
    const wire = key & 7;
    const field = fields.find((x) => x.n === n);
    if (!field) {
      r.skip(wire);
      continue;
    }
    let value: unknown;
    switch (field.type) {
      case 'string':
        value = r.bytes().toString('utf8');
        break;
      case 'bytes':
        value = Buffer.from(r.bytes());
        break;
      case 'int64':
      case 'int32':
        value = Number(BigInt.asIntN(64, r.varint()));
        break;
      case 'bool':
        value = r.varint() !== 0n;
        break;
      case 'time':
        value = timeFromMessage(r.bytes());
        break;
      case 'json': {
        const raw = decodeMessage('FieldsV1', r.bytes()).Raw as Buffer | undefined;
        value = raw && raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as unknown) : {};
        break;
      }
      case 'message':
        value = decodeMessage(field.message!, r.bytes());
        break;
      case 'map<string,string>':
      case 'map<string,bytes>': {
        const entry = decodeMessage('MapEntry', r.bytes()) as { key?: string; value?: Buffer };
        const map = (out[field.name] as Record<string, string> | undefined) ?? {};
        const data = entry.value ?? Buffer.alloc(0);
        map[entry.key ?? ''] =
          field.type === 'map<string,bytes>' ? data.toString('base64') : data.toString('utf8');
        out[field.name] = map;
        continue;
      }
    }
    if (field.repeated) ((out[field.name] as unknown[] | undefined) ?? (out[field.name] = [])).push(value);
    else out[field.name] = value;
  }
  return out;
}

/** Whether this server can write an object of this apiVersion and kind as protobuf. */
export function canEncode(apiVersion: unknown, kind: unknown): boolean {
  return `${String(apiVersion)}/${String(kind)}` in TOP_LEVEL;
}

/** `k8s\0` + runtime.Unknown{typeMeta, raw}: an object as the apiserver sends it in protobuf. */
export function encodeObject(object: Record<string, unknown>): Buffer {
  const apiVersion = String(object.apiVersion);
  const kind = String(object.kind);
  const message = TOP_LEVEL[`${apiVersion}/${kind}`];
  if (!message) throw new ProtobufError(`no protobuf encoding for ${apiVersion} ${kind}`);
  const raw = encodeMessage(message, object);
  return Buffer.concat([MAGIC, encodeMessage('Unknown', { typeMeta: { apiVersion, kind }, raw })]);
}

/** Reads an enveloped object; the result carries apiVersion and kind from the envelope. */
export function decodeObject(body: Buffer): Record<string, unknown> {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) {
    throw new ProtobufError('provided object does not have the protobuf magic prefix');
  }
  const unknown = decodeMessage('Unknown', body.subarray(4)) as {
    typeMeta?: { apiVersion?: string; kind?: string };
    raw?: Buffer;
  };
  const apiVersion = unknown.typeMeta?.apiVersion ?? '';
  const kind = unknown.typeMeta?.kind ?? '';
  const message = TOP_LEVEL[`${apiVersion}/${kind}`];
  if (!message)
    throw new ProtobufError(
      `no kind "${kind}" is registered for version "${apiVersion}" in the protobuf decoder of this test server`,
    );
  return { apiVersion, kind, ...decodeMessage(message, unknown.raw ?? Buffer.alloc(0)) };
}

/** Whether an Accept header puts protobuf first. */
export function prefersProtobuf(accept: string | undefined): boolean {
  return (accept ?? '').split(',')[0]!.trim().startsWith(PROTOBUF);
}
