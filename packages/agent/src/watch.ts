import type { KubernetesObject } from '@slipway/contracts';
import { AgentError, toAgentError } from './agent-error.js';
import type { KubeClient } from './kube.js';

/**
 * A watch the agent keeps, the way client-go's reflector keeps one: it lists first (ADDED for
 * every object) unless it was given a resourceVersion, then watches from the list's version with
 * bookmarks. When the connection drops it resumes from the last resourceVersion it saw (an event's
 * or a bookmark's); when that version is too old — `410 Gone` (Status reason `Expired`) answered
 * to the request, or an ERROR event with code 410 — it lists again and reports the difference
 * against what it had seen (ADDED, MODIFIED, and DELETED for objects that went away meanwhile), so
 * no delete is missed. A connection that ends without news is reopened after a growing pause.
 */

export interface WatchTarget {
  apiVersion: string;
  kind: string;
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /** start from this version instead of listing first */
  resourceVersion?: string | undefined;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface KeepWatchingOptions {
  /** pauses before reopening a watch that ended without news (exponential, capped) */
  backoff?: { initialMs: number; maxMs: number };
  /** each watch request asks the API server to end it after this long (default 5 to 10 min) */
  timeoutSeconds?: number;
  /** told each time the watch is reopened ('resume') or the kind listed again ('relist') */
  onRestart?: (how: 'resume' | 'relist', resourceVersion: string | undefined) => void;
}

interface StatusObject {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
}

const keyOf = (o: KubernetesObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const rvOf = (o: KubernetesObject | undefined): string | undefined => {
  const rv = o?.metadata?.resourceVersion;
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
};
const uidOf = (o: KubernetesObject) => o.metadata.uid as string | undefined;

/** Whether a failed watch or list request means "your resourceVersion is too old". */
function isGone(error: unknown): boolean {
  const e = error as { statusCode?: number; code?: number } | null;
  return e?.statusCode === 410 || e?.code === 410;
}

/** Errors the watch cannot outlast by trying again: the kind, the namespace or the right to see them. */
function isFinal(error: unknown): boolean {
  if (error instanceof AgentError)
    return ['not_found', 'forbidden_namespace', 'invalid'].includes(error.code);
  const status = (error as { statusCode?: number; code?: number } | null)?.statusCode;
  return status === 400 || status === 401 || status === 403 || status === 404;
}

const WATCH_TIMEOUT_SECONDS = 300;
const LASTED_MS = 10_000;

export class KeptWatch {
  /** the version a reopened watch starts from */
  resourceVersion: string | undefined;
  private readonly known = new Map<string, KubernetesObject>();
  private readonly backoff: { initialMs: number; maxMs: number };
  private stopped = false;
  private abortCurrent: () => void = () => undefined;
  private timer: NodeJS.Timeout | null = null;
  private quietEnds = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly target: WatchTarget,
    private readonly onEvent: (type: WatchEventType, object: KubernetesObject) => void,
    private readonly onFail: (error: unknown) => void,
    private readonly options: KeepWatchingOptions = {},
  ) {
    this.backoff = options.backoff ?? { initialMs: 200, maxMs: 30_000 };
    this.resourceVersion = target.resourceVersion;
  }

  /** Lists (unless given a version) and opens the watch; a first failure rejects. */
  async start(): Promise<void> {
    if (!this.resourceVersion) await this.relist();
    await this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abortCurrent();
  }

  private emit(type: WatchEventType, object: KubernetesObject): void {
    if (!this.stopped) this.onEvent(type, object);
  }

  /** Lists the kind and reports what changed since the objects last seen. */
  private async relist(): Promise<void> {
    const items: KubernetesObject[] = [];
    let listVersion: string | undefined;
    let token: string | undefined;
    do {
      const page = await this.kube.list({
        apiVersion: this.target.apiVersion,
        kind: this.target.kind,
        ...(this.target.namespace ? { namespace: this.target.namespace } : {}),
        ...(this.target.labelSelector ? { labelSelector: this.target.labelSelector } : {}),
        ...(this.target.fieldSelector ? { fieldSelector: this.target.fieldSelector } : {}),
        limit: 500,
        ...(token ? { continue: token } : {}),
      });
      items.push(...page.items);
      listVersion ??= page.resourceVersion;
      token = page.continue;
    } while (token && !this.stopped);
    const seen = new Set<string>();
    for (const item of items) {
      const key = keyOf(item);
      seen.add(key);
      const before = this.known.get(key);
      this.known.set(key, item);
      if (!before) this.emit('ADDED', item);
      else if (uidOf(before) !== uidOf(item)) {
        this.emit('DELETED', before);
        this.emit('ADDED', item);
      } else if (rvOf(before) !== rvOf(item)) this.emit('MODIFIED', item);
    }
    for (const [key, before] of [...this.known]) {
      if (seen.has(key)) continue;
      this.known.delete(key);
      this.emit('DELETED', before);
    }
    this.resourceVersion = listVersion;
  }

  private async open(): Promise<void> {
    let expired = false;
    let news = false;
    const openedAt = Date.now();
    let failure: StatusObject | null = null;
    const handle = await this.kube.watch(
      {
        apiVersion: this.target.apiVersion,
        kind: this.target.kind,
        ...(this.target.namespace ? { namespace: this.target.namespace } : {}),
        ...(this.target.labelSelector ? { labelSelector: this.target.labelSelector } : {}),
        ...(this.target.fieldSelector ? { fieldSelector: this.target.fieldSelector } : {}),
        ...(this.resourceVersion ? { resourceVersion: this.resourceVersion } : {}),
        // As client-go's reflector: the API server ends the watch after 5 to 10 minutes, so a
        // connection that died without a word (a NAT forgot it) is noticed and reopened.
        timeoutSeconds:
          this.options.timeoutSeconds ??
          WATCH_TIMEOUT_SECONDS + Math.floor(Math.random() * WATCH_TIMEOUT_SECONDS),
      },
      (type, object) => {
        if (this.stopped) return;
        if (type === 'ERROR') {
          const status = object as unknown as StatusObject;
          if (status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone') expired = true;
          else failure = status;
          return;
        }
        news = true;
        const rv = rvOf(object);
        if (rv) this.resourceVersion = rv;
        if (type === 'BOOKMARK') return;
        if (type === 'DELETED') this.known.delete(keyOf(object));
        else this.known.set(keyOf(object), object);
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.emit(type, object);
      },
      (error) => {
        if (this.stopped) return;
        const aborted = (error as { name?: string } | null)?.name === 'AbortError';
        // A watch that brought news or lasted restarts at once; one that did not, after a growing
        // pause (an API server that ends every watch at once must not be asked again in a loop).
        const lasted = Date.now() - openedAt >= LASTED_MS;
        this.quietEnds = (news || lasted) && !failure ? 0 : this.quietEnds + 1;
        if (expired || isGone(error)) {
          this.restart('relist', this.delay());
          return;
        }
        if (error && !aborted && isFinal(error)) {
          this.stop();
          this.onFail(error);
          return;
        }
        // The API server ends watches now and then (its timeout, a restart, a dropped network).
        this.restart('resume', this.delay());
      },
    );
    this.abortCurrent = handle.abort;
  }

  private delay(): number {
    if (this.quietEnds === 0) return 0;
    const base = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.min(this.quietEnds - 1, 20));
    return Math.round(base / 2 + (Math.random() * base) / 2);
  }

  private restart(how: 'resume' | 'relist', delayMs: number): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.options.onRestart?.(how, this.resourceVersion);
      const attempt = how === 'relist' ? this.relist().then(() => this.open()) : this.open();
      attempt.catch((error: unknown) => {
        if (this.stopped) return;
        this.quietEnds++;
        if (isGone(error)) return this.restart('relist', this.delay());
        if (isFinal(error)) {
          this.stop();
          this.onFail(toAgentError(error));
          return;
        }
        this.restart(how, this.delay());
      });
    }, delayMs);
  }
}
