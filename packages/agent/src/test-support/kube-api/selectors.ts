import { HttpError, getPath, type KubeObject } from './types.js';

type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

/** Parses a label selector: a=b, a==b, a!=b, a, !a, a in (x,y), a notin (x,y). */
export function parseLabelSelector(selector: string): Requirement[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts.map((raw) => {
    const part = raw.trim();
    let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (m) {
      return {
        key: m[1]!,
        op: m[2] as 'in' | 'notin',
        values: m[3]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    }
    m = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(part);
    if (m) return { key: m[1]!, op: m[2] === '!=' ? 'neq' : 'eq', value: m[3]! };
    m = /^(!?)([\w./-]+)$/.exec(part);
    if (m) return { key: m[2]!, op: m[1] ? 'notexists' : 'exists' };
    throw new HttpError(400, 'BadRequest', `unable to parse requirement: ${part}`);
  });
}

export function matchesLabels(labels: Record<string, string>, requirements: Requirement[]): boolean {
  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const value = labels[r.key];
    switch (r.op) {
      case 'eq':
        return has && value === r.value;
      case 'neq':
        return !has || value !== r.value;
      case 'in':
        return has && r.values.includes(value!);
      case 'notin':
        return !has || !r.values.includes(value!);
      case 'exists':
        return has;
      case 'notexists':
        return !has;
    }
  });
}

export function matchesFields(obj: KubeObject, selector: string): boolean {
  return selector
    .split(',')
    .filter(Boolean)
    .every((term) => {
      const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(term.trim());
      if (!m) throw new HttpError(400, 'BadRequest', `invalid field selector: ${term}`);
      const actual = getPath(obj, m[1]!);
      const equal = String(actual ?? '') === m[3];
      return m[2] === '!=' ? !equal : equal;
    });
}

/** Whether an object is in a namespace (when given) and matches the selectors (when given). */
export function matches(
  object: KubeObject,
  namespace?: string,
  labelSelector?: string,
  fieldSelector?: string,
): boolean {
  if (namespace && object.metadata.namespace !== namespace) return false;
  if (labelSelector) {
    const labels = (object.metadata.labels as Record<string, string> | undefined) ?? {};
    if (!matchesLabels(labels, parseLabelSelector(labelSelector))) return false;
  }
  if (fieldSelector && !matchesFields(object, fieldSelector)) return false;
  return true;
}

/** Field labels each built-in kind supports in field selectors, beyond metadata.name and metadata.namespace. */
const FIELD_LABELS: Record<string, string[]> = {
  'v1/Pod': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  'v1/Event': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  'v1/Secret': ['type'],
  'v1/Namespace': ['status.phase'],
  'v1/Node': ['spec.unschedulable'],
  'v1/Service': ['spec.clusterIP', 'spec.type'],
  'v1/PersistentVolumeClaim': [],
  'apps/v1/ReplicaSet': ['status.replicas'],
  'batch/v1/Job': ['status.successful'],
};

/** Refuses a field selector on a field the kind does not support, as the apiserver does. */
export function checkFieldSelector(apiVersion: string, kind: string, selector: string | undefined): void {
  if (!selector) return;
  const allowed = ['metadata.name', 'metadata.namespace', ...(FIELD_LABELS[`${apiVersion}/${kind}`] ?? [])];
  for (const term of selector.split(',').filter(Boolean)) {
    const m = /^([\w.]+)\s*(==|=|!=)/.exec(term.trim());
    if (!m)
      throw new HttpError(400, 'BadRequest', `invalid selector: '${selector}'; can't understand '${term}'`);
    if (!allowed.includes(m[1]!))
      throw new HttpError(400, 'BadRequest', `field label not supported: ${m[1]}`);
  }
}
