import { randomUUID } from 'node:crypto';
import { apiVersionOf, tracksGeneration } from './kinds.js';
import { matches } from './selectors.js';
import { clone, type KindInfo, type KubeObject } from './types.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  rv: number;
  kind: KindInfo;
  type: EventType;
  object: KubeObject;
  /** the object before a change (MODIFIED), for watches whose selector it enters or leaves */
  previous?: KubeObject;
}

/** A listener on changes (watches, controllers, garbage collection). */
export type ChangeListener = (event: StoredEvent) => void;

/**
 * Objects in memory with one resourceVersion counter (as etcd's revision): every create, update
 * and delete takes the next number, and the change is kept in a history a watch resumes from.
 */
export class ObjectStore {
  readonly objects = new Map<string, KubeObject>();
  /** changes after `compactedRv`, oldest first */
  readonly events: StoredEvent[] = [];
  private readonly listeners = new Set<ChangeListener>();
  resourceVersion = 1;
  /** history at and before this resourceVersion is gone: resuming from it answers 410 Expired */
  compactedRv = 0;
  /** how many changes the history keeps */
  historyLimit = 5000;

  key(kind: KindInfo, namespace: string | undefined, name: string): string {
    return `${kind.plural}.${kind.group}/${kind.namespaced ? (namespace ?? '') : ''}/${name}`;
  }

  lookup(kind: KindInfo, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objects.get(this.key(kind, namespace, name));
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stores an object (create or update), stamping uid, creationTimestamp, resourceVersion, generation. */
  write(kind: KindInfo, object: KubeObject): KubeObject {
    const key = this.key(kind, object.metadata.namespace, object.metadata.name);
    const existing = this.objects.get(key);
    const stored = clone(object);
    this.stamp(kind, stored, existing);
    this.objects.set(key, stored);
    this.emit(kind, existing ? 'MODIFIED' : 'ADDED', stored, existing);
    return clone(stored);
  }

  /** What `write` would store, without storing it (dry-run). */
  preview(kind: KindInfo, object: KubeObject): KubeObject {
    const existing = this.objects.get(this.key(kind, object.metadata.namespace, object.metadata.name));
    const out = clone(object);
    this.stamp(kind, out, existing, true);
    return out;
  }

  /** Removes an object; the deletion takes a new resourceVersion, which the DELETED event carries. */
  remove(kind: KindInfo, object: KubeObject): KubeObject {
    const key = this.key(kind, object.metadata.namespace, object.metadata.name);
    const existing = this.objects.get(key);
    if (!existing) return object;
    this.objects.delete(key);
    const gone = clone(existing);
    gone.metadata.resourceVersion = String(++this.resourceVersion);
    this.emit(kind, 'DELETED', gone);
    return clone(gone);
  }

  /** Objects of a kind, optionally in a namespace and matching selectors, sorted by namespace/name. */
  selected(kind: KindInfo, namespace?: string, labelSelector?: string, fieldSelector?: string): KubeObject[] {
    return [...this.objects.values()]
      .filter((o) => o.kind === kind.kind && o.apiVersion === apiVersionOf(kind))
      .filter((o) => matches(o, namespace, labelSelector, fieldSelector))
      .sort((a, b) =>
        `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
        ),
      );
  }

  /** Drops the whole change history, as etcd compaction does: older resourceVersions answer 410. */
  compact(): void {
    this.events.length = 0;
    this.compactedRv = this.resourceVersion;
  }

  private stamp(kind: KindInfo, object: KubeObject, existing: KubeObject | undefined, dryRun = false): void {
    const meta = object.metadata;
    meta.uid = (existing?.metadata.uid as string | undefined) ?? randomUUID();
    meta.creationTimestamp =
      (existing?.metadata.creationTimestamp as string | undefined) ??
      new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    meta.resourceVersion = dryRun
      ? ((existing?.metadata.resourceVersion as string | undefined) ?? undefined)
      : String(++this.resourceVersion);
    if (meta.resourceVersion === undefined) delete meta.resourceVersion;
    if (!tracksGeneration(kind)) {
      delete meta.generation;
      return;
    }
    // metadata.generation counts changes to everything but metadata and status.
    const desired = (o: KubeObject) => JSON.stringify({ ...o, metadata: undefined, status: undefined });
    const generation = (existing?.metadata.generation as number | undefined) ?? 0;
    meta.generation = existing ? (desired(existing) !== desired(object) ? generation + 1 : generation) : 1;
  }

  private emit(kind: KindInfo, type: EventType, object: KubeObject, previous?: KubeObject): void {
    const event: StoredEvent = {
      rv: Number(object.metadata.resourceVersion),
      kind,
      type,
      object: clone(object),
      ...(previous ? { previous: clone(previous) } : {}),
    };
    this.events.push(event);
    while (this.events.length > this.historyLimit) {
      const dropped = this.events.shift()!;
      this.compactedRv = dropped.rv;
    }
    for (const l of [...this.listeners]) l(event);
  }
}
