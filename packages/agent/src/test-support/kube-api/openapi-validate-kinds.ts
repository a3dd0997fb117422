/**
 * The apiserver's validation (pkg/apis/*\/validation) for the kinds Slipway deploys, with its
 * field paths, cause types and messages (k8s.io/apimachinery/pkg/util/validation/field). Only the
 * rules a deploy tool trips over are here: names, a Deployment's selector and template, pod
 * containers and ports, Service ports and type, ConfigMap and Secret keys, labels.
 */
/** One cause of a 422 Invalid, as the apiserver lists them in `details.causes`. */
export interface ValidationError {
  field: string;
  message: string;
  reason: string;
}

type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const asMap = (v: unknown): Obj => (isMap(v) ? v : {});

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

const MSG_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const MSG_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const MSG_1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const MSG_LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const MSG_CONFIG_KEY =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** Go's rendering of a bad value in field.Invalid: numbers and bools plain, strings quoted, maps as %#v. */
function badValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  if (isMap(v)) {
    const entries = Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(v[k]))}`);
    return `map[string]string{${entries.join(', ')}}`;
  }
  return JSON.stringify(v);
}

class Errors {
  list: ValidationError[] = [];
  required(field: string, detail = '') {
    this.list.push({
      field,
      reason: 'FieldValueRequired',
      message: detail ? `Required value: ${detail}` : 'Required value',
    });
  }
  invalid(field: string, value: unknown, detail: string) {
    this.list.push({
      field,
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${badValue(value)}: ${detail}`,
    });
  }
  notSupported(field: string, value: unknown, supported: string[]) {
    const values = supported.map((s) => JSON.stringify(s)).join(', ');
    this.list.push({
      field,
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${badValue(value)}: supported values: ${values}`,
    });
  }
  duplicate(field: string, value: unknown) {
    this.list.push({ field, reason: 'FieldValueDuplicate', message: `Duplicate value: ${badValue(value)}` });
  }
}

function checkName(e: Errors, field: string, value: string, kind: 'label' | 'subdomain' | '1035') {
  const [re, msg, max] =
    kind === 'label'
      ? [DNS1123_LABEL, MSG_LABEL, 63]
      : kind === '1035'
        ? [DNS1035_LABEL, MSG_1035, 63]
        : [DNS1123_SUBDOMAIN, MSG_SUBDOMAIN, 253];
  if (value.length > max) e.invalid(field, value, `must be no more than ${max} characters`);
  if (!re.test(value)) e.invalid(field, value, msg);
}

// Kinds whose names must be DNS-1123 labels or DNS-1035 labels rather than subdomains.
const NAME_RULE: Record<string, 'label' | '1035'> = { Namespace: 'label', Service: '1035' };

function validateMeta(e: Errors, meta: Obj, kind: string, path = 'metadata') {
  const name = meta.name;
  if (path === 'metadata') {
    if (typeof name !== 'string' || name === '') {
      if (!meta.generateName) e.required(`${path}.name`, 'name or generateName is required');
    } else checkName(e, `${path}.name`, name, NAME_RULE[kind] ?? 'subdomain');
  }
  for (const [k, v] of Object.entries(asMap(meta.labels))) {
    if (typeof v === 'string' && (v.length > 63 || !LABEL_VALUE.test(v)))
      e.invalid(`${path}.labels`, v, v.length > 63 ? 'must be no more than 63 characters' : MSG_LABEL_VALUE);
    void k;
  }
}

function validatePodSpec(e: Errors, spec: Obj, path: string, onlyAlways: boolean) {
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) e.required(`${path}.containers`);
  const seen = new Set<string>();
  (Array.isArray(containers) ? containers : []).forEach((raw, i) => {
    const c = asMap(raw);
    const p = `${path}.containers[${i}]`;
    if (typeof c.name !== 'string' || c.name === '') e.required(`${p}.name`);
    else {
      if (seen.has(c.name)) e.duplicate(`${p}.name`, c.name);
      seen.add(c.name);
      checkName(e, `${p}.name`, c.name, 'label');
    }
    if (typeof c.image !== 'string' || c.image.trim() === '') e.required(`${p}.image`);
    (Array.isArray(c.ports) ? c.ports : []).forEach((rawPort, j) => {
      const port = asMap(rawPort);
      const pp = `${p}.ports[${j}]`;
      if (typeof port.containerPort !== 'number' || port.containerPort < 1 || port.containerPort > 65535) {
        if (port.containerPort === undefined || port.containerPort === 0) e.required(`${pp}.containerPort`);
        else e.invalid(`${pp}.containerPort`, port.containerPort, 'must be between 1 and 65535, inclusive');
      }
      if (port.protocol !== undefined && !['TCP', 'UDP', 'SCTP'].includes(String(port.protocol))) {
        e.notSupported(`${pp}.protocol`, port.protocol, ['SCTP', 'TCP', 'UDP']);
      }
    });
  });
  const policy = spec.restartPolicy;
  if (onlyAlways && policy !== undefined && policy !== 'Always')
    e.notSupported(`${path}.restartPolicy`, policy, ['Always']);
  else if (policy !== undefined && !['Always', 'OnFailure', 'Never'].includes(String(policy))) {
    e.notSupported(`${path}.restartPolicy`, policy, ['Always', 'OnFailure', 'Never']);
  }
}

/** labels.SelectorFromSet(matchLabels) with matchExpressions In/NotIn/Exists/DoesNotExist. */
function selectorMatches(selector: Obj, labels: Obj): boolean {
  for (const [k, v] of Object.entries(asMap(selector.matchLabels))) if (labels[k] !== v) return false;
  for (const raw of Array.isArray(selector.matchExpressions) ? selector.matchExpressions : []) {
    const ex = asMap(raw);
    const key = String(ex.key);
    const values = Array.isArray(ex.values) ? ex.values : [];
    const has = key in labels;
    if (ex.operator === 'In' && !(has && values.includes(labels[key]))) return false;
    if (ex.operator === 'NotIn' && has && values.includes(labels[key])) return false;
    if (ex.operator === 'Exists' && !has) return false;
    if (ex.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

function validateWorkloadSpec(e: Errors, spec: Obj, kind: string) {
  if (typeof spec.replicas === 'number' && spec.replicas < 0)
    e.invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0');
  const template = asMap(spec.template);
  const labels = asMap(asMap(template.metadata).labels);
  const selector = spec.selector;
  if (kind !== 'Job') {
    if (!isMap(selector)) e.required('spec.selector');
    else if (
      Object.keys(asMap(selector.matchLabels)).length +
        (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0) ===
      0
    ) {
      e.invalid('spec.selector', selector, `empty selector is invalid for ${kind.toLowerCase()}`);
    }
    // A missing selector selects nothing, so it never matches the template either.
    if (!isMap(selector) || !selectorMatches(selector, labels)) {
      e.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`');
    }
  }
  validateMeta(e, asMap(template.metadata), kind, 'spec.template.metadata');
  const podSpec = asMap(template.spec);
  validatePodSpec(e, podSpec, 'spec.template.spec', kind !== 'Job');
  if (kind === 'Job' && podSpec.restartPolicy === 'Always')
    e.notSupported('spec.template.spec.restartPolicy', 'Always', ['OnFailure', 'Never']);
}

function validateService(e: Errors, spec: Obj) {
  const type = spec.type ?? 'ClusterIP';
  const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
  if (!types.includes(String(type))) e.notSupported('spec.type', type, types);
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  if (type !== 'ExternalName' && ports.length === 0 && spec.clusterIP !== 'None') e.required('spec.ports');
  const names = new Set<string>();
  ports.forEach((raw, i) => {
    const port = asMap(raw);
    const p = `spec.ports[${i}]`;
    if (ports.length > 1 && (typeof port.name !== 'string' || port.name === '')) e.required(`${p}.name`);
    else if (typeof port.name === 'string' && port.name !== '') {
      if (names.has(port.name)) e.duplicate(`${p}.name`, port.name);
      names.add(port.name);
    }
    if (typeof port.port !== 'number' || port.port < 1 || port.port > 65535)
      e.invalid(`${p}.port`, port.port ?? 0, 'must be between 1 and 65535, inclusive');
    if (typeof port.targetPort === 'number' && (port.targetPort < 1 || port.targetPort > 65535)) {
      e.invalid(`${p}.targetPort`, port.targetPort, 'must be between 1 and 65535, inclusive');
    }
  });
}

function validateKeys(e: Errors, obj: Obj) {
  for (const field of ['data', 'stringData', 'binaryData']) {
    for (const key of Object.keys(asMap(obj[field])))
      if (!CONFIG_KEY.test(key)) e.invalid(`${field}[${key}]`, key, MSG_CONFIG_KEY);
  }
}

/** Validation errors for a decoded object of a built-in kind (empty when it is valid). */
export function validateKind(obj: Obj, _apiVersion: string, kind: string): ValidationError[] {
  const e = new Errors();
  validateMeta(e, asMap(obj.metadata), kind);
  const spec = asMap(obj.spec);
  switch (kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      validateWorkloadSpec(e, spec, kind);
      break;
    case 'CronJob':
      if (typeof spec.schedule !== 'string' || spec.schedule === '') e.required('spec.schedule');
      validatePodSpec(
        e,
        asMap(asMap(asMap(asMap(spec.jobTemplate).spec).template).spec),
        'spec.jobTemplate.spec.template.spec',
        false,
      );
      break;
    case 'Pod':
      validatePodSpec(e, spec, 'spec', false);
      break;
    case 'Service':
      validateService(e, spec);
      break;
    case 'ConfigMap':
    case 'Secret':
      validateKeys(e, obj);
      break;
  }
  return e.list;
}

/** Go's %#v of a metav1.LabelSelector, as field.Invalid prints it. */
function goLabelSelector(sel: Obj): string {
  const labels = asMap(sel.matchLabels);
  const entries = Object.keys(labels)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(labels[k]))}`);
  const matchLabels = entries.length ? `map[string]string{${entries.join(', ')}}` : 'map[string]string(nil)';
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions.map(asMap) : [];
  const req = (r: Obj) => {
    const values = Array.isArray(r.values)
      ? `[]string{${r.values.map((v) => JSON.stringify(String(v))).join(', ')}}`
      : '[]string(nil)';
    return `v1.LabelSelectorRequirement{Key:${JSON.stringify(String(r.key ?? ''))}, Operator:${JSON.stringify(String(r.operator ?? ''))}, Values:${values}}`;
  };
  const matchExpressions = exprs.length
    ? `[]v1.LabelSelectorRequirement{${exprs.map(req).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${matchLabels}, MatchExpressions:${matchExpressions}}`;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What the apiserver refuses in an update that create would allow: a workload's selector, and
 * the data of an immutable ConfigMap or Secret.
 */
export function validateKindUpdate(oldObj: Obj, newObj: Obj, kind: string): ValidationError[] {
  const list: ValidationError[] = [];
  const oldSpec = asMap(oldObj.spec);
  const newSpec = asMap(newObj.spec);
  if (
    ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(kind) &&
    !sameJson(oldSpec.selector, newSpec.selector)
  ) {
    list.push({
      field: 'spec.selector',
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${goLabelSelector(asMap(newSpec.selector))}: field is immutable`,
    });
  }
  if ((kind === 'ConfigMap' || kind === 'Secret') && oldObj.immutable === true) {
    if (newObj.immutable !== true)
      list.push({
        field: 'immutable',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: field is immutable when `immutable` is set',
      });
    for (const field of ['data', 'binaryData']) {
      if (!sameJson(oldObj[field], newObj[field]))
        list.push({
          field,
          reason: 'FieldValueForbidden',
          message: 'Forbidden: field is immutable when `immutable` is set',
        });
    }
  }
  return list;
}
