import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A protocol-level Kubernetes API server for tests: discovery, get, list (label and field
 * selectors, limit/continue), watch, create, server-side apply, merge patch, replace, delete, pod
 * logs (follow), exec over the channel.k8s.io WebSocket protocol, and status changes driven by
 * the test. Objects live in memory with uids and resource versions. Loopback only.
 */

export interface KindInfo {
  group: string;
  version: string;
  kind: string;
  /** the resource name in URLs, e.g. 'deployments' */
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
}

export type KubeObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; namespace?: string };
};

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType?: string;
}

export interface ExecSession {
  namespace: string;
  pod: string;
  container: string;
  command: string[];
  tty: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
  /** ends the session with a status (exit code 0 → Success) */
  exit(code?: number): void;
  onStdin(handler: (text: string) => void): void;
  onResize(handler: (size: { width: number; height: number }) => void): void;
}

export interface KubeApiServerOptions {
  /** when set, every request must carry `Authorization: Bearer <token>` */
  token?: string;
  gitVersion?: string;
  /** nodes and their CPU capacity (default one node with 4 CPUs) */
  nodes?: { name: string; cpu: string }[];
  /** extra kinds (CRDs), e.g. tekton.dev/v1 PipelineRun */
  kinds?: KindInfo[];
  /** what an exec session does (default: a tiny shell; see defaultExec) */
  exec?: (session: ExecSession) => void;
}

const core = (kind: string, plural: string, namespaced = true, shortNames?: string[]): KindInfo => ({
  group: '',
  version: 'v1',
  kind,
  plural,
  namespaced,
  ...(shortNames ? { shortNames } : {}),
});
const grouped = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced = true,
): KindInfo => ({
  group,
  version,
  kind,
  plural,
  namespaced,
});

export const BUILT_IN_KINDS: KindInfo[] = [
  core('Namespace', 'namespaces', false, ['ns']),
  core('Node', 'nodes', false, ['no']),
  core('Pod', 'pods', true, ['po']),
  core('Service', 'services', true, ['svc']),
  core('ConfigMap', 'configmaps', true, ['cm']),
  core('Secret', 'secrets'),
  core('ServiceAccount', 'serviceaccounts', true, ['sa']),
  core('Event', 'events', true, ['ev']),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc']),
  core('PersistentVolume', 'persistentvolumes', false, ['pv']),
  core('Endpoints', 'endpoints', true, ['ep']),
  grouped('apps', 'v1', 'Deployment', 'deployments'),
  grouped('apps', 'v1', 'StatefulSet', 'statefulsets'),
  grouped('apps', 'v1', 'DaemonSet', 'daemonsets'),
  grouped('apps', 'v1', 'ReplicaSet', 'replicasets'),
  grouped('batch', 'v1', 'Job', 'jobs'),
  grouped('batch', 'v1', 'CronJob', 'cronjobs'),
  grouped('networking.k8s.io', 'v1', 'Ingress', 'ingresses'),
  grouped('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies'),
  grouped('rbac.authorization.k8s.io', 'v1', 'Role', 'roles'),
  grouped('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings'),
  grouped('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
  grouped('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  grouped('storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false),
];

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

const apiVersionOf = (k: KindInfo) => (k.group ? `${k.group}/${k.version}` : k.version);

interface LogState {
  text: string;
  ended: boolean;
  followers: Set<ServerResponse>;
}

interface WatchState {
  kind: KindInfo;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  res: ServerResponse;
}

class HttpError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const clone = <T>(v: T): T => structuredClone(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Maps merge key by key; lists and scalars are replaced (enough for tests). */
function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return clone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = deepMerge(base[key], value);
  }
  return out;
}

function getPath(obj: unknown, dotted: string): unknown {
  let current: unknown = obj;
  for (const part of dotted.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

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

function matchesLabels(labels: Record<string, string>, requirements: Requirement[]): boolean {
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

function matchesFields(obj: KubeObject, selector: string): boolean {
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

export class KubeApiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => {
      for (const p of ['v5.channel.k8s.io', 'v4.channel.k8s.io']) if (protocols.has(p)) return p;
      return false;
    },
  });
  private readonly kinds: KindInfo[] = [...BUILT_IN_KINDS];
  private readonly objects = new Map<string, KubeObject>();
  private readonly logs = new Map<string, LogState>();
  private readonly watches = new Set<WatchState>();
  private readonly execSockets = new Set<WebSocket>();
  private readonly events: { rv: number; kind: KindInfo; type: string; object: KubeObject }[] = [];
  private resourceVersion = 1;
  private readonly options: KubeApiServerOptions;
  url = '';

  constructor(options: KubeApiServerOptions = {}) {
    this.options = options;
    for (const k of options.kinds ?? []) this.addKind(k);
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    this.server.on('upgrade', (req, socket, head) => {
      if (!this.authorised(req)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onExec(req, ws));
    });
    for (const name of ['default', 'kube-system', 'kube-public']) this.put(this.namespaceObject(name));
    for (const node of options.nodes ?? [{ name: 'node-1', cpu: '4' }]) this.addNode(node.name, node.cpu);
  }

  /** Starts listening on a free loopback port. */
  static async start(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
    const server = new KubeApiServer(options);
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    server.url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    return server;
  }

  /** A kubeconfig (YAML) pointing at this server, for `--kubeconfig`. */
  kubeconfig(contextName = 'test'): string {
    const user = this.options.token ? `    token: ${this.options.token}\n` : '    {}\n';
    return [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: ${contextName}`,
      '  cluster:',
      `    server: ${this.url}`,
      // client-node refuses plain http unless TLS verification is explicitly skipped.
      '    insecure-skip-tls-verify: true',
      'users:',
      `- name: ${contextName}`,
      '  user:',
      user.trimEnd(),
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
    for (const w of this.watches) w.res.end();
    for (const log of this.logs.values()) for (const f of log.followers) f.end();
    for (const s of this.execSockets) s.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- test controls ----

  addKind(kind: KindInfo): void {
    if (
      !this.kinds.some((k) => k.group === kind.group && k.version === kind.version && k.kind === kind.kind)
    ) {
      this.kinds.push(kind);
    }
  }

  addNode(name: string, cpu: string): void {
    this.put({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      status: {
        capacity: { cpu, memory: '8Gi', pods: '110' },
        allocatable: { cpu, memory: '8Gi', pods: '110' },
      },
    });
  }

  /** Creates or replaces an object as a controller would (no field manager). */
  put(object: KubeObject): KubeObject {
    const kind = this.kindOf(object.apiVersion, object.kind);
    const key = this.key(kind, object.metadata.namespace, object.metadata.name);
    const existing = this.objects.get(key);
    const stored = clone(object);
    this.stamp(stored, existing);
    this.objects.set(key, stored);
    this.emit(kind, existing ? 'MODIFIED' : 'ADDED', stored);
    return clone(stored);
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    const info = this.kindOf(apiVersion, kind);
    const found = this.objects.get(this.key(info, info.namespaced ? namespace : undefined, name));
    return found ? clone(found) : undefined;
  }

  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    const info = this.kindOf(apiVersion, kind);
    return [...this.objects.values()]
      .filter((o) => o.apiVersion === apiVersionOf(info) && o.kind === info.kind)
      .filter((o) => !namespace || o.metadata.namespace === namespace)
      .map(clone);
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
    const containers = (
      (pod.spec as { containers?: { name: string; image?: string }[] })?.containers ?? []
    ).map((c) => c);
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
    const log = this.log(namespace, pod, container);
    log.text += text;
    for (const f of log.followers) f.write(text);
  }

  /** Ends a container's log: followers' responses finish. */
  endLog(namespace: string, pod: string, container: string): void {
    const log = this.log(namespace, pod, container);
    log.ended = true;
    for (const f of log.followers) f.end();
    log.followers.clear();
  }

  /** How many clients follow a container's log right now. */
  followers(namespace: string, pod: string, container: string): number {
    return this.log(namespace, pod, container).followers.size;
  }

  /** How many watches are open right now. */
  watchers(): number {
    return this.watches.size;
  }

  /** Closes every open watch and log stream, as an API server restart would. */
  dropStreams(): void {
    for (const w of this.watches) w.res.destroy();
    this.watches.clear();
    for (const log of this.logs.values()) {
      for (const f of log.followers) f.destroy();
      log.followers.clear();
    }
  }

  // ---- internals ----

  private log(namespace: string, pod: string, container: string): LogState {
    const key = `${namespace}/${pod}/${container}`;
    let log = this.logs.get(key);
    if (!log) {
      log = { text: '', ended: false, followers: new Set() };
      this.logs.set(key, log);
    }
    return log;
  }

  private namespaceObject(name: string): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
  }

  private kindOf(apiVersion: string, kind: string): KindInfo {
    const info = this.kinds.find((k) => apiVersionOf(k) === apiVersion && k.kind === kind);
    if (!info)
      throw new HttpError(
        404,
        'NotFound',
        `the server could not find the requested resource (${apiVersion} ${kind})`,
      );
    return info;
  }

  private key(kind: KindInfo, namespace: string | undefined, name: string): string {
    return `${kind.plural}.${kind.group}/${kind.namespaced ? (namespace ?? '') : ''}/${name}`;
  }

  private stamp(object: KubeObject, existing: KubeObject | undefined): void {
    const meta = object.metadata;
    meta.uid = (existing?.metadata.uid as string | undefined) ?? randomUUID();
    meta.creationTimestamp =
      (existing?.metadata.creationTimestamp as string | undefined) ?? new Date().toISOString();
    meta.resourceVersion = String(++this.resourceVersion);
    const specChanged = JSON.stringify(existing?.spec) !== JSON.stringify(object.spec);
    const generation = (existing?.metadata.generation as number | undefined) ?? 0;
    meta.generation = existing ? (specChanged ? generation + 1 : generation) : 1;
  }

  private emit(kind: KindInfo, type: string, object: KubeObject): void {
    const rv = Number(object.metadata.resourceVersion);
    this.events.push({ rv, kind, type, object: clone(object) });
    if (this.events.length > 5000) this.events.shift();
    for (const w of this.watches) {
      if (w.kind !== kind) continue;
      if (this.matches(object, w.namespace, w.labelSelector, w.fieldSelector)) {
        w.res.write(JSON.stringify({ type, object }) + '\n');
      }
    }
  }

  private matches(
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

  private authorised(req: IncomingMessage): boolean {
    return !this.options.token || req.headers.authorization === `Bearer ${this.options.token}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
    });
    try {
      if (!this.authorised(req)) throw new HttpError(401, 'Unauthorized', 'Unauthorized');
      const body = await readBody(req);
      await this.route(
        req.method ?? 'GET',
        url.pathname,
        query,
        req.headers['content-type'] ?? '',
        body,
        res,
      );
    } catch (error) {
      if (res.headersSent) {
        res.end();
        return;
      }
      const e = error instanceof HttpError ? error : new HttpError(500, 'InternalError', String(error));
      sendJson(res, e.code, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: e.message,
        reason: e.reason,
        ...(e.details ? { details: e.details } : {}),
        code: e.code,
      });
    }
  }

  private async route(
    method: string,
    pathname: string,
    query: Record<string, string>,
    contentType: string,
    body: string,
    res: ServerResponse,
  ): Promise<void> {
    const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (pathname === '/version') {
      const gitVersion = this.options.gitVersion ?? 'v1.31.2';
      const [major, minor] = gitVersion.replace(/^v/, '').split('.');
      return sendJson(res, 200, { major, minor, gitVersion, platform: 'linux/amd64' });
    }
    if (pathname === '/healthz' || pathname === '/readyz') return sendText(res, 200, 'ok');
    if (segments[0] === 'api' && segments.length === 1) {
      return sendJson(res, 200, { kind: 'APIVersions', versions: ['v1'] });
    }
    if (segments[0] === 'apis' && segments.length === 1) return sendJson(res, 200, this.groupList());
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api') {
      group = '';
      version = segments[1]!;
      rest = segments.slice(2);
    } else if (segments[0] === 'apis' && segments.length >= 2) {
      group = segments[1]!;
      if (segments.length === 2) {
        const g = this.groupList().groups.find((x) => x.name === group);
        if (!g) throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
        return sendJson(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...g });
      }
      version = segments[2]!;
      rest = segments.slice(3);
    } else {
      throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    }
    const inVersion = this.kinds.filter((k) => k.group === group && k.version === version);
    if (inVersion.length === 0)
      throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    if (rest.length === 0) {
      if (method !== 'GET')
        throw new HttpError(405, 'MethodNotAllowed', 'the server does not allow this method');
      return sendJson(res, 200, this.resourceList(group, version, inVersion));
    }
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
    const [plural, name, sub] = rest;
    const kind = inVersion.find((k) => k.plural === plural);
    if (!kind) throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    if (!kind.namespaced) namespace = undefined;
    if (sub === 'log' && kind.kind === 'Pod' && method === 'GET')
      return this.podLog(namespace!, name!, query, res);
    if (sub === 'status' && name)
      return this.objectRoute(method, kind, namespace, name, query, contentType, body, res, true);
    if (sub) throw new HttpError(404, 'NotFound', 'the server could not find the requested resource');
    if (!name) {
      if (method === 'GET') {
        if (query.watch === '1' || query.watch === 'true') return this.watch(kind, namespace, query, res);
        return this.listRoute(kind, namespace, query, res);
      }
      if (method === 'POST') return this.create(kind, namespace, body, query, res);
      throw new HttpError(
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      );
    }
    return this.objectRoute(method, kind, namespace, name, query, contentType, body, res, false);
  }

  private groupList() {
    const groups = new Map<string, string[]>();
    for (const k of this.kinds) {
      if (!k.group) continue;
      const versions = groups.get(k.group) ?? [];
      if (!versions.includes(k.version)) versions.push(k.version);
      groups.set(k.group, versions);
    }
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [...groups].map(([name, versions]) => ({
        name,
        versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
        preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
      })),
    };
  }

  private resourceList(group: string, version: string, kinds: KindInfo[]) {
    const resources: Record<string, unknown>[] = [];
    for (const k of kinds) {
      resources.push({
        name: k.plural,
        singularName: k.kind.toLowerCase(),
        namespaced: k.namespaced,
        kind: k.kind,
        verbs: VERBS,
        ...(k.shortNames ? { shortNames: k.shortNames } : {}),
      });
      if (k.kind === 'Pod') {
        resources.push({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
        resources.push({
          name: 'pods/exec',
          singularName: '',
          namespaced: true,
          kind: 'PodExecOptions',
          verbs: ['create', 'get'],
        });
      }
      resources.push({
        name: `${k.plural}/status`,
        singularName: '',
        namespaced: k.namespaced,
        kind: k.kind,
        verbs: ['get', 'patch', 'update'],
      });
    }
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources,
    };
  }

  private selected(
    kind: KindInfo,
    namespace: string | undefined,
    query: Record<string, string>,
  ): KubeObject[] {
    return [...this.objects.values()]
      .filter((o) => o.kind === kind.kind && o.apiVersion === apiVersionOf(kind))
      .filter((o) => this.matches(o, namespace, query.labelSelector, query.fieldSelector))
      .sort((a, b) =>
        `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
          `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
        ),
      );
  }

  private listRoute(
    kind: KindInfo,
    namespace: string | undefined,
    query: Record<string, string>,
    res: ServerResponse,
  ) {
    const all = this.selected(kind, namespace, query);
    const start = query.continue ? Number(Buffer.from(query.continue, 'base64url').toString()) : 0;
    const limit = query.limit ? Number(query.limit) : all.length;
    const page = all.slice(start, start + limit);
    const more = start + limit < all.length;
    // Like the real server, items of a list carry no apiVersion and kind.
    const items = page.map((o) => {
      const { apiVersion: _a, kind: _k, ...rest } = clone(o);
      return rest;
    });
    return sendJson(res, 200, {
      kind: `${kind.kind}List`,
      apiVersion: apiVersionOf(kind),
      metadata: {
        resourceVersion: String(this.resourceVersion),
        ...(more ? { continue: Buffer.from(String(start + limit)).toString('base64url') } : {}),
      },
      items,
    });
  }

  private watch(
    kind: KindInfo,
    namespace: string | undefined,
    query: Record<string, string>,
    res: ServerResponse,
  ) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    const since = query.resourceVersion ? Number(query.resourceVersion) : undefined;
    if (since === undefined || since === 0) {
      for (const o of this.selected(kind, namespace, query))
        res.write(JSON.stringify({ type: 'ADDED', object: o }) + '\n');
    } else {
      for (const e of this.events) {
        if (
          e.rv > since &&
          e.kind === kind &&
          this.matches(e.object, namespace, query.labelSelector, query.fieldSelector)
        ) {
          res.write(JSON.stringify({ type: e.type, object: e.object }) + '\n');
        }
      }
    }
    const state: WatchState = {
      kind,
      res,
      ...(namespace ? { namespace } : {}),
      ...(query.labelSelector ? { labelSelector: query.labelSelector } : {}),
      ...(query.fieldSelector ? { fieldSelector: query.fieldSelector } : {}),
    };
    this.watches.add(state);
    res.on('close', () => this.watches.delete(state));
  }

  private requireNamespace(kind: KindInfo, namespace: string | undefined): void {
    if (!kind.namespaced) return;
    if (!namespace) throw new HttpError(400, 'BadRequest', 'the namespace of the object is required');
    if (!this.objects.has(this.key(BUILT_IN_KINDS[0]!, undefined, namespace))) {
      throw new HttpError(404, 'NotFound', `namespaces "${namespace}" not found`, {
        name: namespace,
        kind: 'namespaces',
      });
    }
  }

  private parseBody(body: string): KubeObject {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new HttpError(400, 'BadRequest', 'the request body is not valid JSON');
    }
    if (!isObject(parsed)) throw new HttpError(400, 'BadRequest', 'the request body must be an object');
    return parsed as KubeObject;
  }

  private validate(kind: KindInfo, object: KubeObject, namespace: string | undefined, name?: string): void {
    if (object.kind !== kind.kind || object.apiVersion !== apiVersionOf(kind)) {
      throw new HttpError(
        400,
        'BadRequest',
        `the API version in the data (${object.apiVersion}) does not match the expected API version (${apiVersionOf(kind)})`,
      );
    }
    if (!isObject(object.metadata) || typeof object.metadata.name !== 'string' || !object.metadata.name) {
      throw new HttpError(
        422,
        'Invalid',
        `${kind.kind} "" is invalid: metadata.name: Required value: name or generateName is required`,
      );
    }
    if (name && object.metadata.name !== name) {
      throw new HttpError(
        400,
        'BadRequest',
        `the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    if (
      kind.namespaced &&
      object.metadata.namespace &&
      namespace &&
      object.metadata.namespace !== namespace
    ) {
      throw new HttpError(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(object.metadata.name) || object.metadata.name.length > 253) {
      throw new HttpError(
        422,
        'Invalid',
        `${kind.kind} "${object.metadata.name}" is invalid: metadata.name: Invalid value: "${object.metadata.name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'`,
      );
    }
  }

  private create(
    kind: KindInfo,
    namespace: string | undefined,
    body: string,
    query: Record<string, string>,
    res: ServerResponse,
  ) {
    const object = this.parseBody(body);
    this.validate(kind, object, namespace);
    this.requireNamespace(kind, namespace);
    const key = this.key(kind, namespace, object.metadata.name);
    if (this.objects.has(key)) {
      throw new HttpError(
        409,
        'AlreadyExists',
        `${kind.plural}.${kind.group || ''}`.replace(/\.$/, '') + ` "${object.metadata.name}" already exists`,
      );
    }
    if (kind.namespaced) object.metadata.namespace = namespace;
    if (query.fieldManager) this.manage(object, query.fieldManager, 'Update');
    if (query.dryRun === 'All') return sendJson(res, 201, object);
    return sendJson(res, 201, this.put(object));
  }

  private manage(object: KubeObject, manager: string, operation: 'Apply' | 'Update'): void {
    const fields = (
      (object.metadata.managedFields as { manager: string; operation: string }[] | undefined) ?? []
    ).filter((f) => !(f.manager === manager && f.operation === operation));
    fields.push({
      manager,
      operation,
      apiVersion: object.apiVersion,
      time: new Date().toISOString(),
      fieldsType: 'FieldsV1',
    } as never);
    object.metadata.managedFields = fields;
  }

  private objectRoute(
    method: string,
    kind: KindInfo,
    namespace: string | undefined,
    name: string,
    query: Record<string, string>,
    contentType: string,
    body: string,
    res: ServerResponse,
    statusOnly: boolean,
  ) {
    const key = this.key(kind, namespace, name);
    const existing = this.objects.get(key);
    const notFound = () =>
      new HttpError(
        404,
        'NotFound',
        `${kind.group ? `${kind.plural}.${kind.group}` : kind.plural} "${name}" not found`,
        {
          name,
          kind: kind.plural,
          ...(kind.group ? { group: kind.group } : {}),
        },
      );
    const dryRun = query.dryRun === 'All';
    switch (method) {
      case 'GET':
        if (!existing) throw notFound();
        return sendJson(res, 200, existing);
      case 'DELETE': {
        if (!existing) throw notFound();
        if (dryRun) return sendJson(res, 200, existing);
        this.objects.delete(key);
        this.emit(kind, 'DELETED', existing);
        if (kind.kind === 'Namespace') {
          for (const [k, o] of [...this.objects]) {
            if (o.metadata.namespace === name) {
              this.objects.delete(k);
              this.emit(this.kindOf(o.apiVersion, o.kind), 'DELETED', o);
            }
          }
        }
        if (kind.kind === 'Pod') {
          for (const [k, log] of this.logs) {
            if (k.startsWith(`${namespace}/${name}/`)) {
              for (const f of log.followers) f.end();
              log.followers.clear();
            }
          }
        }
        return sendJson(res, 200, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name, kind: kind.plural, uid: existing.metadata.uid },
        });
      }
      case 'PUT': {
        if (!existing) throw notFound();
        const object = this.parseBody(body);
        this.validate(kind, object, namespace, name);
        const rv = object.metadata.resourceVersion;
        if (rv && rv !== existing.metadata.resourceVersion) {
          throw new HttpError(
            409,
            'Conflict',
            `Operation cannot be fulfilled on ${kind.plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
          );
        }
        if (kind.namespaced) object.metadata.namespace = namespace;
        const next = statusOnly
          ? { ...existing, status: object.status }
          : { ...object, status: existing.status ?? object.status };
        if (dryRun) return sendJson(res, 200, next);
        return sendJson(res, 200, this.put(next as KubeObject));
      }
      case 'PATCH': {
        const type = contentType.split(';')[0]!.trim();
        const patch = this.parseBody(body);
        if (type === 'application/apply-patch+yaml') {
          if (!query.fieldManager) {
            throw new HttpError(
              400,
              'BadRequest',
              'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
            );
          }
          this.validate(kind, patch, namespace, name);
          if (!existing) this.requireNamespace(kind, namespace);
          const applied = clone(patch);
          if (kind.namespaced) applied.metadata.namespace = namespace;
          const merged = (existing ? deepMerge(existing, applied) : applied) as KubeObject;
          this.manage(merged, query.fieldManager, 'Apply');
          if (dryRun) return sendJson(res, existing ? 200 : 201, merged);
          return sendJson(res, existing ? 200 : 201, this.put(merged));
        }
        if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
          if (!existing) throw notFound();
          const merged = (
            statusOnly
              ? { ...existing, status: deepMerge(existing.status, patch.status) }
              : deepMerge(existing, patch)
          ) as KubeObject;
          if (dryRun) return sendJson(res, 200, merged);
          return sendJson(res, 200, this.put(merged));
        }
        throw new HttpError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
        );
      }
      default:
        throw new HttpError(
          405,
          'MethodNotAllowed',
          'the server does not allow this method on the requested resource',
        );
    }
  }

  private podLog(namespace: string, name: string, query: Record<string, string>, res: ServerResponse) {
    const pod = this.objects.get(this.key(BUILT_IN_KINDS[2]!, namespace, name));
    if (!pod) throw new HttpError(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' });
    const containers = ((pod.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []).map(
      (c) => c.name,
    );
    let container = query.container;
    if (!container) {
      if (containers.length !== 1) {
        throw new HttpError(
          400,
          'BadRequest',
          `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`,
        );
      }
      container = containers[0]!;
    }
    if (!containers.includes(container)) {
      throw new HttpError(400, 'BadRequest', `container ${container} is not valid for pod ${name}`);
    }
    const log = this.log(namespace, name, container);
    let text = log.text;
    if (query.tailLines) {
      const lines = text.split(/(?<=\n)/);
      text = lines.slice(Math.max(0, lines.length - Number(query.tailLines))).join('');
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    if (text) res.write(text);
    if (query.follow === 'true' && !log.ended) {
      log.followers.add(res);
      res.on('close', () => log.followers.delete(res));
      return;
    }
    res.end();
  }

  private onExec(req: IncomingMessage, ws: WebSocket): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(url.pathname);
    const v5 = ws.protocol === 'v5.channel.k8s.io';
    const sendChannel = (channel: number, text: string) => {
      if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(text)]));
    };
    const status = (s: Record<string, unknown>) => {
      sendChannel(3, JSON.stringify(s));
      ws.close(1000);
    };
    this.execSockets.add(ws);
    ws.on('close', () => this.execSockets.delete(ws));
    const pod = m
      ? this.objects.get(this.key(BUILT_IN_KINDS[2]!, decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)))
      : undefined;
    if (!m || !pod) {
      status({
        metadata: {},
        status: 'Failure',
        message: `pods "${m?.[2] ?? ''}" not found`,
        reason: 'NotFound',
        code: 404,
      });
      return;
    }
    const stdinHandlers: ((text: string) => void)[] = [];
    const resizeHandlers: ((size: { width: number; height: number }) => void)[] = [];
    ws.on('message', (data: Buffer) => {
      const channel = data[0];
      const payload = data.subarray(1).toString();
      if (channel === 0) for (const h of stdinHandlers) h(payload);
      else if (channel === 4) {
        try {
          // Go decodes JSON keys case-insensitively: clients send Width/Height or width/height.
          const size = JSON.parse(payload) as Record<string, number>;
          const width = size.Width ?? size.width ?? 0;
          const height = size.Height ?? size.height ?? 0;
          for (const h of resizeHandlers) h({ width, height });
        } catch {
          /* ignore a bad resize */
        }
      } else if (channel === 255 && v5) {
        /* close of a stream: nothing to do */
      }
    });
    const containers = ((pod.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []).map(
      (c) => c.name,
    );
    const session: ExecSession = {
      namespace: decodeURIComponent(m[1]!),
      pod: decodeURIComponent(m[2]!),
      container: url.searchParams.get('container') ?? containers[0] ?? '',
      command: url.searchParams.getAll('command'),
      tty: url.searchParams.get('tty') === 'true',
      stdout: (text) => sendChannel(1, text),
      stderr: (text) => sendChannel(2, text),
      exit: (code = 0) =>
        status(
          code === 0
            ? { metadata: {}, status: 'Success' }
            : {
                metadata: {},
                status: 'Failure',
                message: `command terminated with non-zero exit code: ${code}`,
                reason: 'NonZeroExitCode',
                details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
              },
        ),
      onStdin: (h) => stdinHandlers.push(h),
      onResize: (h) => resizeHandlers.push(h),
    };
    (this.options.exec ?? defaultExec)(session);
  }
}

/**
 * The default exec: `echo …` prints its arguments; a shell (`sh`, `/bin/sh`, `bash`) runs
 * `echo …`, `pwd` and `exit [n]` lines from stdin and reports terminal resizes as `resize WxH`.
 */
export function defaultExec(session: ExecSession): void {
  const [program, ...args] = session.command;
  if (program === 'echo') {
    session.stdout(args.join(' ') + '\n');
    session.exit(0);
    return;
  }
  if (program && ['sh', '/bin/sh', 'bash', '/bin/bash'].includes(program)) {
    let buffer = '';
    session.onResize(({ width, height }) => session.stdout(`resize ${width}x${height}\n`));
    session.onStdin((text) => {
      buffer += text;
      let i: number;
      while ((i = buffer.search(/[\r\n]/)) >= 0) {
        const line = buffer.slice(0, i).trim();
        buffer = buffer.slice(i + 1);
        if (!line) continue;
        const [cmd, ...rest] = line.split(/\s+/);
        if (cmd === 'echo') session.stdout(rest.join(' ') + '\n');
        else if (cmd === 'pwd') session.stdout('/\n');
        else if (cmd === 'exit') session.exit(Number(rest[0] ?? 0));
        else session.stderr(`sh: ${cmd}: not found\n`);
      }
    });
    return;
  }
  session.stderr(`exec: "${program ?? ''}": executable file not found in $PATH\n`);
  session.exit(126);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(text);
}
