import type { ApiContext, RequestInfo } from './context.js';
import { apiVersionOf } from './kinds.js';
import type { ObjectStore } from './store.js';
import { HttpError, clone, isObject, type KindInfo, type KubeObject } from './types.js';
import { forbidden, isDryRun, notFound, type VerbResult } from './verbs.js';

type Propagation = 'Background' | 'Foreground' | 'Orphan';

interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

const PROTECTED_NAMESPACES = ['default', 'kube-system', 'kube-public'];

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const finalizersOf = (o: KubeObject) => (o.metadata.finalizers as string[] | undefined) ?? [];
const ownersOf = (o: KubeObject) => (o.metadata.ownerReferences as OwnerRef[] | undefined) ?? [];

/** DeleteOptions from the query and from a DELETE body (kubectl sends them in the body). */
export function deleteOptions(
  query: Record<string, string>,
  body: unknown,
): {
  dryRun: boolean;
  propagation?: Propagation;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
} {
  const b = isObject(body) ? body : {};
  const dryRunBody = Array.isArray(b.dryRun) ? (b.dryRun as string[]) : [];
  const policy = (query.propagationPolicy ?? b.propagationPolicy) as string | undefined;
  const orphan = query.orphanDependents ?? (b.orphanDependents as boolean | undefined);
  let propagation: Propagation | undefined;
  if (policy) {
    if (!['Background', 'Foreground', 'Orphan'].includes(policy)) {
      throw new HttpError(
        422,
        'Invalid',
        `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`,
      );
    }
    propagation = policy as Propagation;
  } else if (orphan !== undefined) propagation = String(orphan) === 'true' ? 'Orphan' : 'Background';
  const grace = query.gracePeriodSeconds ?? b.gracePeriodSeconds;
  return {
    dryRun: isDryRun(query) || dryRunBody.includes('All'),
    ...(propagation ? { propagation } : {}),
    ...(grace !== undefined ? { gracePeriodSeconds: Number(grace) } : {}),
    ...(isObject(b.preconditions)
      ? { preconditions: b.preconditions as { uid?: string; resourceVersion?: string } }
      : {}),
  };
}

/** batch/v1 Jobs (and v1 ReplicationControllers) orphan their dependents unless told otherwise. */
const defaultPropagation = (kind: KindInfo): Propagation =>
  (kind.group === 'batch' && kind.kind === 'Job') || kind.kind === 'ReplicationController'
    ? 'Orphan'
    : 'Background';

/**
 * The delete verb with the apiserver's rules: finalizers hold an object (deletionTimestamp set),
 * namespaces terminate, `propagationPolicy` decides what happens to dependents, dry-run changes
 * nothing and answers as if done.
 */
export function deleteObject(
  ctx: ApiContext,
  gc: Lifecycle,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  body: unknown,
  info: RequestInfo,
): VerbResult {
  const existing = ctx.store.lookup(kind, namespace, name);
  if (!existing) throw notFound(kind, name);
  const options = deleteOptions(info.query, body);
  if (kind.kind === 'Namespace' && kind.group === '' && PROTECTED_NAMESPACES.includes(name)) {
    throw forbidden(kind, name, 'this namespace may not be deleted');
  }
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== existing.metadata.uid) {
    throw new HttpError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${kind.group ? `${kind.plural}.${kind.group}` : kind.plural} "${name}": Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${String(existing.metadata.uid)}`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== existing.metadata.resourceVersion) {
    throw new HttpError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${kind.group ? `${kind.plural}.${kind.group}` : kind.plural} "${name}": Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${String(existing.metadata.resourceVersion)}`,
    );
  }
  const next = clone(existing);
  const finalizers = [...finalizersOf(next)];
  if (kind.kind === 'Namespace' && kind.group === '') {
    next.metadata.deletionTimestamp ??= now();
    next.metadata.deletionGracePeriodSeconds ??= 0;
    next.spec = { ...(isObject(next.spec) ? next.spec : {}), finalizers: ['kubernetes'] };
    next.status = { ...(isObject(next.status) ? next.status : {}), phase: 'Terminating' };
    if (options.dryRun) return { code: 200, object: ctx.store.preview(kind, next) };
    const stored = ctx.store.write(kind, next);
    gc.wake();
    return { code: 200, object: stored };
  }
  const spec = isObject(existing.spec) ? existing.spec : {};
  const grace =
    options.gracePeriodSeconds ?? (spec.terminationGracePeriodSeconds as number | undefined) ?? 30;
  if (kind.kind === 'Pod' && kind.group === '' && gc.gracefulPods && spec.nodeName && grace > 0) {
    // A pod on a node terminates gracefully: the kubelet (a test controller) finishes it.
    if (!next.metadata.deletionTimestamp) {
      next.metadata.deletionTimestamp = new Date(Date.now() + grace * 1000)
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      next.metadata.deletionGracePeriodSeconds = grace;
    }
    if (options.dryRun) return { code: 200, object: ctx.store.preview(kind, next) };
    return { code: 200, object: ctx.store.write(kind, next) };
  }
  const propagation = options.propagation ?? defaultPropagation(kind);
  if (propagation === 'Foreground' && !finalizers.includes('foregroundDeletion'))
    finalizers.push('foregroundDeletion');
  if (propagation === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
  if (finalizers.length === 0) {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name,
        ...(kind.group ? { group: kind.group } : {}),
        kind: kind.plural,
        uid: existing.metadata.uid,
      },
    };
    if (options.dryRun) return { code: 200, object: status };
    gc.removeNow(kind, existing);
    return { code: 200, object: status };
  }
  next.metadata.finalizers = finalizers;
  next.metadata.deletionTimestamp ??= now();
  next.metadata.deletionGracePeriodSeconds ??= 0;
  if (options.dryRun) return { code: 200, object: ctx.store.preview(kind, next) };
  const stored = ctx.store.write(kind, next);
  gc.wake();
  return { code: 200, object: stored };
}

/**
 * The test garbage collector and namespace controller. They act, shortly after a change, on what
 * is deleted through this server: dependents of a removed owner (Background), owners waiting on
 * `foregroundDeletion` or `orphan`, objects whose finalizers are all gone, terminating namespaces.
 * Dependents whose owner never existed here are left alone (a test may invent owner uids).
 */
export class Lifecycle {
  private readonly goneOwners = new Set<string>();
  /** pods on a node terminate gracefully (set while the test kubelet runs) */
  gracefulPods = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly store: ObjectStore,
    private readonly kindOf: (o: KubeObject) => KindInfo | undefined,
    private readonly onPodGone: (namespace: string, name: string) => void,
  ) {
    store.onChange((e) => {
      if (e.type !== 'DELETED' && e.object.metadata.deletionTimestamp) this.wake();
    });
  }

  wake(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.pass()) this.wake();
      else for (const f of this.idle.splice(0)) f();
    }, 5);
  }

  /** Resolves once the collector has nothing left to do. */
  settled(): Promise<void> {
    if (!this.timer) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Removes an object from the store at once and remembers it for its dependents. */
  removeNow(kind: KindInfo, object: KubeObject): void {
    this.store.remove(kind, object);
    this.goneOwners.add(String(object.metadata.uid));
    if (kind.kind === 'Pod' && kind.group === '')
      this.onPodGone(object.metadata.namespace ?? '', object.metadata.name);
    this.wake();
  }

  private dependents(uid: string): KubeObject[] {
    return [...this.store.objects.values()].filter((o) => ownersOf(o).some((r) => r.uid === uid));
  }

  private write(object: KubeObject): void {
    const kind = this.kindOf(object);
    if (kind) this.store.write(kind, object);
  }

  private startDelete(object: KubeObject, finalizer?: string): void {
    const kind = this.kindOf(object);
    if (!kind || object.metadata.deletionTimestamp) return;
    const finalizers = finalizersOf(object);
    if (finalizer && !finalizers.includes(finalizer)) finalizers.push(finalizer);
    if (finalizers.length === 0) return this.removeNow(kind, object);
    const next = clone(object);
    next.metadata.finalizers = finalizers;
    next.metadata.deletionTimestamp = now();
    next.metadata.deletionGracePeriodSeconds = 0;
    this.store.write(kind, next);
  }

  /** One pass; true when it changed something (another pass follows). */
  private pass(): boolean {
    let changed = false;
    for (const key of [...this.store.objects.keys()]) {
      // Earlier steps of this pass may have changed or removed it: always the current object.
      const object = this.store.objects.get(key);
      const kind = object && this.kindOf(object);
      if (!object || !kind) continue;
      // Background: dependents of an owner that is gone.
      const owners = ownersOf(object);
      if (
        !object.metadata.deletionTimestamp &&
        owners.length > 0 &&
        owners.every((r) => this.goneOwners.has(r.uid))
      ) {
        this.startDelete(object);
        changed = true;
        continue;
      }
      if (!object.metadata.deletionTimestamp) continue;
      // A pod in its grace period is the kubelet's to finish.
      if (Number(object.metadata.deletionGracePeriodSeconds ?? 0) > 0 && kind.kind === 'Pod') continue;
      const uid = String(object.metadata.uid);
      if (kind.kind === 'Namespace' && kind.group === '') {
        changed = this.terminate(kind, object) || changed;
        continue;
      }
      const finalizers = finalizersOf(object);
      if (finalizers.includes('orphan')) {
        for (const d of this.dependents(uid)) {
          const next = clone(d);
          const refs = ownersOf(next).filter((r) => r.uid !== uid);
          if (refs.length > 0) next.metadata.ownerReferences = refs;
          else delete next.metadata.ownerReferences;
          this.write(next);
        }
        this.dropFinalizer(kind, object, 'orphan');
        changed = true;
      } else if (finalizers.includes('foregroundDeletion')) {
        const deps = this.dependents(uid);
        if (deps.length === 0) {
          this.dropFinalizer(kind, object, 'foregroundDeletion');
          changed = true;
        } else {
          for (const d of deps) {
            if (!d.metadata.deletionTimestamp) {
              this.startDelete(d, 'foregroundDeletion');
              changed = true;
            }
          }
        }
      } else if (finalizers.length === 0) {
        this.removeNow(kind, object);
        changed = true;
      }
    }
    return changed;
  }

  private dropFinalizer(kind: KindInfo, object: KubeObject, finalizer: string): void {
    const current = this.store.lookup(kind, object.metadata.namespace, object.metadata.name)!;
    const rest = finalizersOf(current).filter((f) => f !== finalizer);
    if (rest.length === 0) return this.removeNow(kind, current);
    const next = clone(current);
    next.metadata.finalizers = rest;
    this.store.write(kind, next);
  }

  /** The conditions the namespace controller sets while content with finalizers remains. */
  private reportRemaining(kind: KindInfo, ns: KubeObject, contents: KubeObject[]): void {
    const count = (values: string[]) => {
      const by = new Map<string, number>();
      for (const v of values) by.set(v, (by.get(v) ?? 0) + 1);
      return [...by].sort(([a], [b]) => a.localeCompare(b));
    };
    const resources = count(
      contents.map((o) => {
        const k = this.kindOf(o)!;
        // The controller prints resource.group, so core resources end in a bare dot: "pods.".
        return `${k.plural}.${k.group}`;
      }),
    );
    const finalizers = count(contents.flatMap(finalizersOf));
    const condition = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      lastTransitionTime: ns.metadata.deletionTimestamp,
      reason,
      message,
    });
    const conditions = [
      condition(
        'NamespaceDeletionDiscoveryFailure',
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered',
      ),
      condition(
        'NamespaceDeletionGroupVersionParsingFailure',
        'False',
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
      ),
      condition(
        'NamespaceDeletionContentFailure',
        'False',
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization',
      ),
      condition(
        'NamespaceContentRemaining',
        'True',
        'SomeResourcesRemain',
        `Some resources are remaining: ${resources.map(([r, n]) => `${r} has ${n} resource instances`).join(', ')}`,
      ),
      condition(
        'NamespaceFinalizersRemaining',
        'True',
        'SomeFinalizersRemain',
        `Some content in the namespace has finalizers remaining: ${finalizers.map(([f, n]) => `${f} in ${n} resource instances`).join(', ')}`,
      ),
    ];
    const status = isObject(ns.status) ? ns.status : {};
    if (JSON.stringify(status.conditions) === JSON.stringify(conditions)) return;
    this.store.write(kind, { ...clone(ns), status: { ...status, conditions } });
  }

  /** The namespace controller: delete the contents, then drop the `kubernetes` finalizer, then the namespace. */
  private terminate(kind: KindInfo, ns: KubeObject): boolean {
    const name = ns.metadata.name;
    const contents = [...this.store.objects.values()].filter(
      (o) => o.metadata.namespace === name && this.kindOf(o)?.namespaced,
    );
    if (contents.length > 0) {
      let changed = false;
      for (const o of contents) {
        if (!o.metadata.deletionTimestamp) {
          this.startDelete(o);
          changed = true;
        }
      }
      if (!changed) this.reportRemaining(kind, ns, contents);
      return changed;
    }
    const spec = isObject(ns.spec) ? ns.spec : {};
    if (((spec.finalizers as string[] | undefined) ?? []).includes('kubernetes')) {
      const next = clone(ns);
      next.spec = { ...spec, finalizers: [] };
      this.store.write(kind, next);
      return true;
    }
    if (finalizersOf(ns).length === 0) {
      this.removeNow(kind, ns);
      return true;
    }
    return false;
  }
}

export const kindFinder =
  (all: () => KindInfo[]) =>
  (o: KubeObject): KindInfo | undefined =>
    all().find((k) => apiVersionOf(k) === o.apiVersion && k.kind === o.kind);
