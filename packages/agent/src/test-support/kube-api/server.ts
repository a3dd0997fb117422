import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ApiContext, RequestInfo, SchemaHooks } from './context.js';
import { runExec, defaultExec } from './exec.js';
import { decodeBody } from './decode.js';
import { failureStatus, readBody, sendJson } from './http.js';
import { PROTOBUF, canEncode, encodeObject, prefersProtobuf } from './protobuf.js';
import { CustomResources } from './crd-schemas.js';
import { Kinds, apiVersionOf } from './kinds.js';
import { toTable, wantsTable, type IncludeObject } from './table.js';
import { Lifecycle, kindFinder } from './lifecycle.js';
import { Logs } from './logs.js';
import { route } from './router.js';
import { openApiSchema, serveOpenApi } from './schema-openapi.js';
import { ObjectStore } from './store.js';
import {
  HttpError,
  clone,
  isObject,
  type KindInfo,
  type KubeApiServerOptions,
  type KubeObject,
  type RecordedRequest,
} from './types.js';
import { TestControllers } from './test-controllers.js';
import { Watches } from './watch.js';

/**
 * A protocol-level Kubernetes API server for tests. What it simulates and what it does not is
 * listed in README.md beside this file. Loopback only.
 */
export class KubeApiServer {
  readonly requests: RecordedRequest[] = [];
  url = '';
  /** the CA certificate (PEM) when started with `tls: true` */
  caPem: string | undefined;
  private server: Server;
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => {
      for (const p of ['v5.channel.k8s.io', 'v4.channel.k8s.io']) if (protocols.has(p)) return p;
      return false;
    },
  });
  readonly store = new ObjectStore();
  private readonly kinds = new Kinds();
  private readonly customResources = new CustomResources();
  private readonly logs = new Logs();
  private readonly watches: Watches;
  private readonly lifecycle: Lifecycle;
  private readonly ctx: ApiContext;
  private readonly execSockets = new Set<WebSocket>();
  private controllers: TestControllers | undefined;
  private readonly options: KubeApiServerOptions;

  constructor(options: KubeApiServerOptions = {}, schema: SchemaHooks = openApiSchema) {
    this.options = options;
    for (const k of options.kinds ?? []) this.addKind(k);
    for (const crd of options.customResourceDefinitions ?? []) this.addCustomResourceDefinition(crd);
    this.watches = new Watches(this.store, { bookmarkIntervalMs: options.bookmarkIntervalMs ?? 1000 });
    this.lifecycle = new Lifecycle(
      this.store,
      kindFinder(() => this.kinds.all),
      (ns, pod) => this.logs.podGone(ns, pod),
    );
    this.ctx = {
      store: this.store,
      kinds: this.kinds,
      logs: this.logs,
      schema: this.customResources.hooks(schema),
      reconcile: () => this.lifecycle.wake(),
      deny: (attrs) => options.deny?.(attrs) ?? false,
    };
    this.server = createServer();
    for (const name of ['default', 'kube-system', 'kube-public']) this.put(this.namespaceObject(name));
    for (const node of options.nodes ?? [{ name: 'node-1', cpu: '4' }]) this.addNode(node.name, node.cpu);
    if (options.controllers) this.startControllers();
  }

  /** Starts listening on a free loopback port. */
  static async start(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
    const server = new KubeApiServer(options);
    await server.listen();
    return server;
  }

  protected async listen(): Promise<void> {
    if (this.options.tls) {
      const { selfSignedCertificate } = await import('./tls.js');
      const cert = await selfSignedCertificate();
      this.caPem = cert.cert;
      this.server = createHttpsServer({ key: cert.key, cert: cert.cert }) as unknown as Server;
    }
    this.server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res));
    this.server.on('upgrade', (req: IncomingMessage, socket, head) => {
      if (!this.authorised(req)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        this.execSockets.add(ws);
        ws.on('close', () => this.execSockets.delete(ws));
        runExec(req, ws, (ns, name) => this.get('v1', 'Pod', name, ns), this.options.exec ?? defaultExec);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const port = (this.server.address() as AddressInfo).port;
    this.url = `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  }

  /** A kubeconfig (YAML) pointing at this server, for `--kubeconfig`. */
  kubeconfig(contextName = 'test'): string {
    const user = this.options.token ? `    token: ${this.options.token}` : '    {}';
    const trust = this.caPem
      ? `    certificate-authority-data: ${Buffer.from(this.caPem).toString('base64')}`
      : // client-node refuses plain http unless TLS verification is explicitly skipped.
        '    insecure-skip-tls-verify: true';
    return [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: ${contextName}`,
      '  cluster:',
      `    server: ${this.url}`,
      trust,
      'users:',
      `- name: ${contextName}`,
      '  user:',
      user,
      'contexts:',
      `- name: ${contextName}`,
      '  context:',
      `    cluster: ${contextName}`,
      `    user: ${contextName}`,
      `current-context: ${contextName}`,
      '',
    ].join('\n');
  }

  async close(): Promise<void> {
    this.lifecycle.stop();
    this.controllers?.stop();
    this.watches.endAll(false);
    this.logs.endAll(false);
    for (const s of this.execSockets) s.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- test controls ----

  /** Starts the test controllers (see test-controllers.ts): rollouts, pods and jobs then finish by themselves. */
  startControllers(): void {
    this.controllers ??= new TestControllers(this.store, this.kinds);
    this.lifecycle.gracefulPods = true;
  }

  addKind(kind: KindInfo): void {
    this.kinds.add(kind);
  }

  /**
   * Serves a CRD's kinds (an apiextensions.k8s.io/v1 CustomResourceDefinition as parsed JSON) with
   * its structural schema: objects are validated, defaulted and pruned by it (crd-schemas.ts).
   */
  addCustomResourceDefinition(crd: unknown): void {
    for (const kind of this.customResources.add(crd)) this.kinds.add(kind);
  }

  addNode(name: string, cpu: string): void {
    this.put({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      status: {
        capacity: { cpu, memory: '8Gi', pods: '110' },
        allocatable: { cpu, memory: '8Gi', pods: '110' },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
          },
        ],
        nodeInfo: {
          kubeletVersion: this.options.gitVersion ?? 'v1.31.2',
          architecture: 'amd64',
          operatingSystem: 'linux',
        },
      },
    });
  }

  /** Creates or replaces an object as a controller would (no field manager, no admission). */
  put(object: KubeObject): KubeObject {
    const kind = this.kinds.of(object.apiVersion, object.kind);
    const stored = this.store.write(kind, {
      ...object,
      metadata: { ...object.metadata, ...(kind.namespaced ? {} : { namespace: undefined }) },
    } as KubeObject);
    if (!kind.namespaced) delete stored.metadata.namespace;
    return stored;
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    const info = this.kinds.of(apiVersion, kind);
    const found = this.store.lookup(info, info.namespaced ? namespace : undefined, name);
    return found ? clone(found) : undefined;
  }

  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    return this.store.selected(this.kinds.of(apiVersion, kind), namespace).map(clone);
  }

  /** Replaces an object's status (what a controller does), bumping its resourceVersion. */
  setStatus(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
    status: unknown,
  ): KubeObject {
    const current = this.get(apiVersion, kind, name, namespace);
    if (!current) throw new Error(`${kind} ${namespace ?? ''}/${name} does not exist`);
    return this.put({ ...current, status });
  }

  /**
   * Moves a pod to a phase. Terminated phases mark every container terminated (exit code 0 for
   * Succeeded, 1 for Failed unless given) with its termination message, and end its log streams.
   */
  setPodPhase(
    namespace: string,
    name: string,
    phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown',
    options: {
      terminationMessages?: Record<string, string>;
      exitCodes?: Record<string, number>;
      message?: string;
    } = {},
  ): KubeObject {
    const pod = this.get('v1', 'Pod', name, namespace);
    if (!pod) throw new Error(`Pod ${namespace}/${name} does not exist`);
    const containers = (pod.spec as { containers?: { name: string; image?: string }[] })?.containers ?? [];
    const now = new Date().toISOString();
    const terminated = phase === 'Succeeded' || phase === 'Failed';
    const containerStatuses = containers.map((c) => {
      const state = terminated
        ? {
            terminated: {
              exitCode: options.exitCodes?.[c.name] ?? (phase === 'Succeeded' ? 0 : 1),
              reason: phase === 'Succeeded' ? 'Completed' : 'Error',
              message: options.terminationMessages?.[c.name],
              startedAt: now,
              finishedAt: now,
            },
          }
        : phase === 'Running'
          ? { running: { startedAt: now } }
          : { waiting: { reason: 'ContainerCreating' } };
      return {
        name: c.name,
        image: c.image ?? '',
        imageID: '',
        ready: phase === 'Running',
        restartCount: 0,
        started: phase === 'Running',
        state,
      };
    });
    const status = {
      phase,
      ...(options.message ? { message: options.message } : {}),
      conditions: [
        { type: 'Ready', status: phase === 'Running' ? 'True' : 'False', lastTransitionTime: now },
      ],
      startTime: now,
      containerStatuses,
    };
    const updated = this.setStatus('v1', 'Pod', namespace, name, status);
    if (terminated) for (const c of containers) this.endLog(namespace, name, c.name);
    return updated;
  }

  /** Appends to a container's log; followers receive it at once. */
  appendLog(namespace: string, pod: string, container: string, text: string): void {
    this.logs.append(namespace, pod, container, text);
  }

  /** Ends a container's log: followers' responses finish. */
  endLog(namespace: string, pod: string, container: string): void {
    this.logs.end(namespace, pod, container);
  }

  /** How many clients follow a container's log right now. */
  followers(namespace: string, pod: string, container: string): number {
    return this.logs.followerCount(namespace, pod, container);
  }

  /** How many watches are open right now. */
  watchers(): number {
    return this.watches.size;
  }

  /** Closes every open watch and log stream, as an API server restart would. */
  dropStreams(): void {
    this.watches.endAll(true);
    this.logs.endAll(true);
  }

  /** Forgets the change history (as etcd compaction): a watch or list from an older resourceVersion gets 410 Gone. */
  compact(): void {
    this.store.compact();
  }

  /** Resolves once the test garbage collector and namespace controller have nothing left to do. */
  settled(): Promise<void> {
    return this.lifecycle.settled();
  }

  // ---- internals ----

  private namespaceObject(name: string): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
  }

  private authorised(req: IncomingMessage): boolean {
    return !this.options.token || req.headers.authorization === `Bearer ${this.options.token}`;
  }

  /** Encodes an answer by what the client accepts: a Table, protobuf or JSON. */
  private respond(
    res: ServerResponse,
    result: { code: number; object: unknown; kind?: KindInfo; list?: boolean; contentType?: string },
    info: RequestInfo,
  ): void {
    const object = this.asTable(result, info) ?? result.object;
    if (prefersProtobuf(info.accept) && isObject(object) && canEncode(object.apiVersion, object.kind)) {
      const body = encodeObject(object);
      res.writeHead(result.code, {
        ...this.warningHeaders(info),
        'content-type': PROTOBUF,
        'content-length': body.length,
      });
      res.end(body);
      return;
    }
    sendJson(res, result.code, object, this.warningHeaders(info), result.contentType);
  }

  /** The Table a client asked for (Accept: application/json;as=Table;v=v1;g=meta.k8s.io), if any. */
  private asTable(result: { object: unknown; kind?: KindInfo; list?: boolean }, info: RequestInfo): unknown {
    const kind = result.kind;
    if (!kind || !wantsTable(info.accept) || !isObject(result.object)) return undefined;
    const include = (info.query.includeObject as IncludeObject | undefined) ?? 'Metadata';
    if (result.list) {
      const list = result.object as { metadata: Record<string, unknown>; items: Record<string, unknown>[] };
      const items = list.items.map(
        (i) => ({ apiVersion: apiVersionOf(kind), kind: kind.kind, ...i }) as KubeObject,
      );
      const { resourceVersion, ...listMeta } = list.metadata;
      return toTable(kind, items, String(resourceVersion), include, true, listMeta);
    }
    const o = result.object as KubeObject;
    if (o.kind !== kind.kind) return undefined;
    return toTable(kind, [o], String(o.metadata.resourceVersion ?? ''), include);
  }

  private watchEncoder(kind: KindInfo, info: RequestInfo) {
    if (!wantsTable(info.accept)) return undefined;
    const include = (info.query.includeObject as IncludeObject | undefined) ?? 'Metadata';
    return (o: KubeObject, first: boolean) =>
      toTable(kind, [o], String(o.metadata.resourceVersion ?? ''), include, first);
  }

  private warningHeaders(info: RequestInfo): Record<string, string[]> {
    if (info.warnings.length === 0) return {};
    return { warning: info.warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    const contentType = req.headers['content-type'] ?? '';
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      ...(contentType ? { contentType } : {}),
    });
    const info: RequestInfo = {
      query,
      userAgent: req.headers['user-agent'] ?? '',
      accept: req.headers.accept ?? '',
      warnings: [],
    };
    try {
      if (!this.authorised(req)) throw new HttpError(401, 'Unauthorized', 'Unauthorized');
      const raw = await readBody(req);
      const result = route(
        {
          ctx: this.ctx,
          lifecycle: this.lifecycle,
          watches: this.watches,
          gitVersion: this.options.gitVersion ?? 'v1.31.2',
          watchEncoder: (kind, i) => this.watchEncoder(kind, i),
          openapi: serveOpenApi,
        },
        {
          method: req.method ?? 'GET',
          pathname: url.pathname,
          contentType,
          body: decodeBody(raw, contentType),
          info,
          req,
          res,
        },
      );
      if (result) this.respond(res, result, info);
    } catch (error) {
      if (res.headersSent) {
        res.end();
        return;
      }
      const e = error instanceof HttpError ? error : new HttpError(500, 'InternalError', String(error));
      this.respond(res, { code: e.code, object: failureStatus(e) }, info);
    }
  }
}
