import type { ServerResponse } from 'node:http';
import { apiVersionOf } from './kinds.js';
import { checkFieldSelector, matches } from './selectors.js';
import type { ObjectStore, StoredEvent } from './store.js';
import { HttpError, clone, type KindInfo, type KubeObject } from './types.js';

export interface WatchOptions {
  /** how often a watch with allowWatchBookmarks gets a BOOKMARK (the apiserver: about a minute) */
  bookmarkIntervalMs: number;
}

interface WatchState {
  res: ServerResponse;
  stop(): void;
}

const tooOld = (asked: number, oldest: number) =>
  new HttpError(410, 'Expired', `too old resource version: ${asked} (${oldest})`);

const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** `?sendInitialEvents` on a 1.31 apiserver without the WatchList feature gate. */
function refuseInitialEvents(query: Record<string, string>, watch: boolean): void {
  if (query.sendInitialEvents === undefined) return;
  const causes: { field: string; message: string }[] = [];
  if (watch && query.resourceVersionMatch !== 'NotOlderThan') {
    causes.push({
      field: 'resourceVersionMatch',
      message: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    });
  }
  causes.push({
    field: 'sendInitialEvents',
    message: watch
      ? 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'
      : 'sendInitialEvents is forbidden for list',
  });
  const text = causes.map((c) => `${c.field}: Forbidden: ${c.message}`);
  throw new HttpError(
    422,
    'Invalid',
    `ListOptions.meta.k8s.io "" is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}`,
    {
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: causes.map((c) => ({
        reason: 'FieldValueForbidden',
        message: `Forbidden: ${c.message}`,
        field: c.field,
      })),
    },
  );
}

/** Lists and watches over an ObjectStore, with the apiserver's resourceVersion rules. */
export class Watches {
  private readonly open = new Set<WatchState>();

  constructor(
    private readonly store: ObjectStore,
    private readonly options: WatchOptions,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** The list body (items without apiVersion and kind, as the apiserver sends them). */
  list(
    kind: KindInfo,
    namespace: string | undefined,
    query: Record<string, string>,
  ): Record<string, unknown> {
    refuseInitialEvents(query, false);
    checkFieldSelector(apiVersionOf(kind), kind.kind, query.fieldSelector);
    const rv = query.resourceVersion ? Number(query.resourceVersion) : 0;
    if (
      query.resourceVersionMatch === 'Exact' &&
      rv !== this.store.resourceVersion &&
      rv <= this.store.compactedRv
    ) {
      throw tooOld(rv, this.store.compactedRv);
    }
    let start = 0;
    if (query.continue) {
      let token: { rv?: number; start?: number };
      try {
        token = JSON.parse(Buffer.from(query.continue, 'base64url').toString()) as typeof token;
      } catch {
        throw new HttpError(
          400,
          'BadRequest',
          'continue key is not valid: illegal base64 data at input byte 0',
        );
      }
      if ((token.rv ?? 0) <= this.store.compactedRv) throw new HttpError(410, 'Expired', CONTINUE_TOO_OLD);
      start = token.start ?? 0;
    }
    const all = this.store.selected(kind, namespace, query.labelSelector, query.fieldSelector);
    const limit = query.limit && Number(query.limit) > 0 ? Number(query.limit) : all.length;
    const page = all.slice(start, start + limit);
    const more = start + limit < all.length;
    const items = page.map((o) => {
      const { apiVersion: _a, kind: _k, ...rest } = clone(o);
      return rest;
    });
    const listRv = this.store.resourceVersion;
    return {
      kind: `${kind.kind}List`,
      apiVersion: apiVersionOf(kind),
      metadata: {
        resourceVersion: String(listRv),
        ...(more
          ? {
              continue: Buffer.from(JSON.stringify({ rv: listRv, start: start + limit })).toString(
                'base64url',
              ),
              remainingItemCount: all.length - start - limit,
            }
          : {}),
      },
      items,
    };
  }

  watch(
    kind: KindInfo,
    namespace: string | undefined,
    query: Record<string, string>,
    res: ServerResponse,
    encode: (object: KubeObject, first: boolean) => unknown = (o) => o,
  ): void {
    refuseInitialEvents(query, true);
    checkFieldSelector(apiVersionOf(kind), kind.kind, query.fieldSelector);
    const filter = (o: KubeObject) => matches(o, namespace, query.labelSelector, query.fieldSelector);
    const since = query.resourceVersion ? Number(query.resourceVersion) : 0;
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    let first = true;
    const send = (type: string, object: unknown) => {
      if (res.writableEnded) return;
      const plain = type === 'ERROR' || type === 'BOOKMARK';
      const wire = plain ? object : encode(object as KubeObject, first);
      if (!plain) first = false;
      res.write(JSON.stringify({ type, object: wire }) + '\n');
    };
    if (since !== 0 && since < this.store.compactedRv) {
      // The apiserver answers 200 and sends the 410 as an ERROR event, then ends the watch.
      const e = tooOld(since, this.store.compactedRv);
      send('ERROR', {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: e.message,
        reason: e.reason,
        code: 410,
      });
      res.end();
      return;
    }
    let lastRv = this.store.resourceVersion;
    // An object entering the watch's selection is ADDED for it, one leaving it DELETED, as the
    // apiserver's watch cache reports them.
    const seenAs = (e: StoredEvent): string | undefined => {
      const now = filter(e.object);
      if (e.type !== 'MODIFIED' || !e.previous) return now ? e.type : undefined;
      const before = filter(e.previous);
      if (now && before) return 'MODIFIED';
      if (now) return 'ADDED';
      return before ? 'DELETED' : undefined;
    };
    if (since === 0) {
      for (const o of this.store.selected(kind, namespace, query.labelSelector, query.fieldSelector))
        send('ADDED', o);
    } else {
      for (const e of this.store.events) {
        if (e.rv > since && e.kind === kind) {
          const type = seenAs(e);
          if (type) send(type, e.object);
        }
      }
    }
    const unsubscribe = this.store.onChange((e: StoredEvent) => {
      lastRv = e.rv;
      if (e.kind !== kind) return;
      const type = seenAs(e);
      if (type) send(type, e.object);
    });
    const bookmark = () =>
      send('BOOKMARK', {
        kind: kind.kind,
        apiVersion: apiVersionOf(kind),
        metadata: { resourceVersion: String(lastRv) },
      });
    const timers: NodeJS.Timeout[] = [];
    if (query.allowWatchBookmarks === 'true') {
      timers.push(setInterval(bookmark, this.options.bookmarkIntervalMs));
    }
    const state: WatchState = {
      res,
      stop: () => {
        unsubscribe();
        for (const t of timers) clearTimeout(t);
        this.open.delete(state);
      },
    };
    const timeout = Number(query.timeoutSeconds ?? 0);
    if (timeout > 0) {
      timers.push(
        setTimeout(() => {
          if (query.allowWatchBookmarks === 'true') bookmark();
          state.stop();
          res.end();
        }, timeout * 1000),
      );
    }
    this.open.add(state);
    res.on('close', () => state.stop());
  }

  /** Ends every watch cleanly (close) or abruptly (drop, as an apiserver restart). */
  endAll(abrupt: boolean): void {
    for (const w of [...this.open]) {
      w.stop();
      if (abrupt) w.res.destroy();
      else w.res.end();
    }
  }
}
