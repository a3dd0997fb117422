import { ApiException } from '@kubernetes/client-node';
import { AGENT_FIELD_MANAGER, type KubernetesObject } from '@slipway/contracts';
import { AgentError } from './agent-error.js';

/**
 * Server-side apply conflicts, handled the way Argo CD's sync does: Slipway applies without
 * `force` first; when the API server answers 409 with FieldManagerConflict causes, Slipway takes
 * the fields back (`force=true`) only when every one of them is its own — held by one of its own
 * managers (`slipway`, `slipway-*`, in any operation) or still listed under Slipway's Apply entry
 * in the object's managedFields. A field another manager (kubectl edit, helm, an operator, a
 * person) changed is theirs: the apply fails with an error naming the manager and the fields.
 */

/** One cause of a 409 apply conflict, as the API server reports it. */
export interface FieldConflict {
  /** the other manager, e.g. `kubectl-edit` */
  manager: string;
  /** the API version of an Update manager (`conflict with "x" using apps/v1`); none for Apply */
  apiVersion?: string;
  /** the field path in structured-merge-diff form, e.g. `.spec.replicas` */
  field: string;
}

interface StatusBody {
  reason?: string;
  message?: string;
  details?: { causes?: { type?: string; message?: string; field?: string }[] };
}

function statusBody(body: unknown): StatusBody | null {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as StatusBody;
    } catch {
      return null;
    }
  }
  return typeof body === 'object' && body !== null ? (body as StatusBody) : null;
}

/**
 * The conflicts of a failed apply, or null when the error is not an apply conflict. The cause
 * message is `conflict with "<manager>"` for an Apply manager and `conflict with "<manager>" using
 * <apiVersion>[ at <time>]` for an Update manager (k8s.io/apiserver fieldmanager NewConflictError).
 */
export function applyConflicts(error: unknown): FieldConflict[] | null {
  if (!(error instanceof ApiException) || error.code !== 409) return null;
  const status = statusBody(error.body);
  const causes = (status?.details?.causes ?? []).filter((c) => c.type === 'FieldManagerConflict');
  if (causes.length === 0) return null;
  return causes.map((c) => {
    const match = /conflict with ("(?:[^"\\]|\\.)*")(?: using (\S+))?/.exec(c.message ?? '');
    let manager = '';
    if (match) {
      try {
        manager = JSON.parse(match[1]!) as string;
      } catch {
        manager = match[1]!.slice(1, -1);
      }
    }
    return { manager, ...(match?.[2] ? { apiVersion: match[2] } : {}), field: c.field ?? '' };
  });
}

/** Whether a field manager is one of Slipway's own (`slipway`, `slipway-<purpose>`). */
export function isSlipwayManager(manager: string): boolean {
  return manager === AGENT_FIELD_MANAGER || manager.startsWith(`${AGENT_FIELD_MANAGER}-`);
}

type FieldsV1 = Record<string, unknown>;

/** A `k:{"name":"web"}` or `v:"x"` element as structured-merge-diff prints it in a path. */
function valueString(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(valueString).join(',')}]`;
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${valueString(v)}`)
      .join('');
  }
  return String(value);
}

function elementString(key: string): string | null {
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  try {
    switch (kind) {
      case 'f:':
        return `.${rest}`;
      case 'i:':
        return `[${rest}]`;
      case 'v:':
        return `[=${valueString(JSON.parse(rest))}]`;
      case 'k:': {
        const fields = JSON.parse(rest) as Record<string, unknown>;
        const parts = Object.keys(fields)
          .sort()
          .map((name) => `${name}=${valueString(fields[name])}`);
        return `[${parts.join(',')}]`;
      }
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/** Every path a managedFields `fieldsV1` set holds, in the form conflict causes name them. */
export function fieldPaths(fields: FieldsV1, prefix = '', into = new Set<string>()): Set<string> {
  for (const [key, child] of Object.entries(fields)) {
    if (key === '.') {
      if (prefix) into.add(prefix);
      continue;
    }
    const element = elementString(key);
    if (element === null) continue;
    const path = prefix + element;
    const children = typeof child === 'object' && child !== null ? (child as FieldsV1) : {};
    if (Object.keys(children).length === 0) into.add(path);
    else fieldPaths(children, path, into);
  }
  return into;
}

interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  fieldsV1?: FieldsV1;
}

/** The fields Slipway's own Apply entries hold in a live object's managedFields. */
export function slipwayAppliedFields(live: KubernetesObject | null): Set<string> {
  const entries = (live?.metadata as { managedFields?: ManagedFieldsEntry[] } | undefined)?.managedFields;
  const owned = new Set<string>();
  for (const entry of entries ?? []) {
    if (entry.operation === 'Apply' && isSlipwayManager(entry.manager ?? '') && entry.fieldsV1) {
      fieldPaths(entry.fieldsV1, '', owned);
    }
  }
  return owned;
}

/** The conflicts Slipway may not force: fields another manager holds that Slipway does not. */
export function foreignConflicts(conflicts: FieldConflict[], live: KubernetesObject | null): FieldConflict[] {
  const owned = slipwayAppliedFields(live);
  return conflicts.filter((c) => !isSlipwayManager(c.manager) && !owned.has(c.field));
}

const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;

/**
 * The error for conflicts Slipway will not force, naming the object, the fields and the managers:
 * `Deployment api: field .spec.replicas is managed by "kubectl-edit"; Slipway will not overwrite
 * it. Remove the field from the manifest, or take ownership in the cluster (…)`.
 */
export function conflictError(manifest: KubernetesObject, conflicts: FieldConflict[]): AgentError {
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const fields = byManager.get(c.manager) ?? [];
    if (!fields.includes(c.field)) fields.push(c.field);
    byManager.set(c.manager, fields);
  }
  const parts = [...byManager].map(([manager, fields]) =>
    fields.length === 1
      ? `field ${fields[0]} is managed by ${JSON.stringify(manager)}`
      : `fields ${list(fields)} are managed by ${JSON.stringify(manager)}`,
  );
  const many = conflicts.length > 1;
  const ns = manifest.metadata.namespace ? ` -n ${manifest.metadata.namespace}` : '';
  return new AgentError(
    'conflict',
    `${manifest.kind} ${manifest.metadata.name}: ${list(parts)}; Slipway will not overwrite ${many ? 'them' : 'it'}. ` +
      `Remove the ${many ? 'fields' : 'field'} from the manifest, or take ownership in the cluster ` +
      `(kubectl apply --server-side --force-conflicts --field-manager=${AGENT_FIELD_MANAGER}${ns} -f <manifest>)`,
  );
}
