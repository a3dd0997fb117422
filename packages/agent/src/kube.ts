import http from 'node:http';
import https from 'node:https';
import { PassThrough, Writable } from 'node:stream';
import {
  ApiException,
  Exec,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  VersionApi,
  Watch,
  type KubernetesObject as K8sObject,
} from '@kubernetes/client-node';
import {
  AGENT_ADDON_GROUPS,
  AGENT_FIELD_MANAGER,
  type ApiResourceInfo,
  type ClusterFacts,
  type KubernetesObject,
  type ResourceRef,
} from '@slipway/contracts';
import { AgentError, toAgentError } from './agent-error.js';
import { applyConflicts, conflictError, foreignConflicts, type FieldConflict } from './apply.js';
import { readLog, type FollowOptions } from './logs.js';
import { capacityCpu, parseCpu, storageClassInfo, withKind } from './kube-objects.js';

export { AgentError, toAgentError } from './agent-error.js';
export { parseCpu } from './kube-objects.js';

/** The parts of a kubeconfig the agent needs, in or out of the cluster. */
export function loadKubeConfig(options: { kubeconfig?: string; context?: string }): KubeConfig {
  const kc = new KubeConfig();
  if (options.kubeconfig) kc.loadFromFile(options.kubeconfig);
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else kc.loadFromDefault();
  if (options.context) {
    if (!kc.getContextObject(options.context)) {
      throw new Error(`--context: no context named "${options.context}" in the kubeconfig`);
    }
    kc.setCurrentContext(options.context);
  }
  if (!kc.getCurrentCluster()) throw new Error('The kubeconfig names no cluster');
  return kc;
}

const toJson = <T>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T;

export interface LogOptions {
  namespace: string;
  pod: string;
  container?: string;
  follow: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
}

export interface ExecHandle {
  stdin: PassThrough;
  resize(cols: number, rows: number): void;
  close(): void;
}

/** Everything the agent does to the cluster, through the official client. */
export class KubeClient {
  readonly objects: KubernetesObjectApi;
  private discovery: { at: number; resources: ApiResourceInfo[] } | null = null;

  constructor(
    readonly kc: KubeConfig,
    /** how a followed log that is cut off is reopened */
    private readonly logFollow: FollowOptions = {},
  ) {
    this.objects = KubernetesObjectApi.makeApiClient(kc);
  }

  /** GET a path on the API server as JSON, with the kubeconfig's credentials and TLS. */
  async getJson<T>(path: string): Promise<T> {
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new AgentError('internal', 'No current cluster in the kubeconfig');
    const url = new URL(cluster.server.replace(/\/$/, '') + path);
    const options: https.RequestOptions = { method: 'GET', headers: { accept: 'application/json' } };
    await this.kc.applyToHTTPSOptions(options);
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<T>((resolve, reject) => {
      const req = request(url, options, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          if ((res.statusCode ?? 500) >= 300) {
            reject(new ApiException(res.statusCode ?? 500, `GET ${path}`, body, {}));
            return;
          }
          try {
            resolve(JSON.parse(body) as T);
          } catch {
            reject(new AgentError('kubernetes', `GET ${path}: the answer is not JSON`));
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Every kind the cluster serves (preferred versions), through discovery; cached for 60 s. */
  async resources(fresh = false): Promise<ApiResourceInfo[]> {
    if (!fresh && this.discovery && Date.now() - this.discovery.at < 60_000) return this.discovery.resources;
    interface ResourceList {
      groupVersion: string;
      resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
    }
    interface GroupList {
      groups: {
        name: string;
        preferredVersion?: { groupVersion: string };
        versions: { groupVersion: string }[];
      }[];
    }
    const lists: ResourceList[] = [await this.getJson<ResourceList>('/api/v1')];
    const groups = await this.getJson<GroupList>('/apis');
    const settled = await Promise.allSettled(
      groups.groups.map((g) => {
        const gv = g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion;
        return gv ? this.getJson<ResourceList>(`/apis/${gv}`) : Promise.reject(new Error('no version'));
      }),
    );
    for (const s of settled) if (s.status === 'fulfilled') lists.push(s.value);
    const resources: ApiResourceInfo[] = [];
    for (const list of lists) {
      const [group, version] = list.groupVersion.includes('/')
        ? list.groupVersion.split('/')
        : ['', list.groupVersion];
      for (const r of list.resources) {
        if (r.name.includes('/')) continue; // subresources
        resources.push({
          group: group!,
          version: version!,
          apiVersion: list.groupVersion,
          kind: r.kind,
          name: r.name,
          namespaced: r.namespaced,
          verbs: r.verbs,
        });
      }
    }
    this.discovery = { at: Date.now(), resources };
    return resources;
  }

  /** The discovery entry of a kind; an AgentError naming it when the cluster does not serve it. */
  async resource(apiVersion: string, kind: string): Promise<ApiResourceInfo> {
    let found = (await this.resources()).find((r) => r.apiVersion === apiVersion && r.kind === kind);
    if (!found)
      found = (await this.resources(true)).find((r) => r.apiVersion === apiVersion && r.kind === kind);
    if (!found) throw new AgentError('not_found', `The cluster does not serve ${kind} in ${apiVersion}`);
    return found;
  }

  /**
   * Server-side apply as the `slipway` field manager. Without `force`, a conflict is settled the
   * way Argo CD does: fields Slipway itself owns are taken back with `force=true`; fields another
   * manager owns fail the apply with an error naming them (see apply.ts). `force` takes every
   * conflicting field.
   */
  async apply(
    manifest: KubernetesObject,
    options: { force: boolean; dryRun: boolean },
    onTakeBack?: (conflicts: FieldConflict[]) => void,
  ): Promise<KubernetesObject> {
    const send = async (force: boolean) =>
      toJson<KubernetesObject>(
        await this.objects.patch(
          manifest as K8sObject,
          undefined,
          options.dryRun ? 'All' : undefined,
          AGENT_FIELD_MANAGER,
          force ? true : undefined,
          PatchStrategy.ServerSideApply,
        ),
      );
    try {
      return await send(options.force);
    } catch (error) {
      const conflicts = applyConflicts(error);
      if (!conflicts) throw toAgentError(error);
      const live = await this.get({
        apiVersion: manifest.apiVersion,
        kind: manifest.kind,
        name: manifest.metadata.name,
        ...(manifest.metadata.namespace ? { namespace: manifest.metadata.namespace } : {}),
      }).catch(() => null);
      const foreign = foreignConflicts(conflicts, live);
      if (foreign.length > 0) throw conflictError(manifest, foreign);
      try {
        const applied = await send(true);
        onTakeBack?.(conflicts);
        return applied;
      } catch (retryError) {
        throw toAgentError(retryError);
      }
    }
  }

  async delete(ref: ResourceRef, propagationPolicy?: string): Promise<boolean> {
    try {
      await this.objects.delete(
        {
          apiVersion: ref.apiVersion,
          kind: ref.kind,
          metadata: { name: ref.name, namespace: ref.namespace },
        },
        undefined,
        undefined,
        undefined,
        undefined,
        propagationPolicy,
      );
      return true;
    } catch (error) {
      const e = toAgentError(error);
      if (e.code === 'not_found') return false;
      throw e;
    }
  }

  /** One object, or null when it does not exist. */
  async get(ref: ResourceRef): Promise<KubernetesObject | null> {
    try {
      const found = await this.objects.read({
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
      });
      return withKind(toJson(found), ref.apiVersion, ref.kind);
    } catch (error) {
      const e = toAgentError(error);
      if (e.code === 'not_found' && !/does not serve/.test(e.message)) return null;
      throw e;
    }
  }

  async list(args: {
    apiVersion: string;
    kind: string;
    namespace?: string;
    labelSelector?: string;
    fieldSelector?: string;
    limit?: number;
    continue?: string;
  }): Promise<{ items: KubernetesObject[]; continue?: string; resourceVersion?: string }> {
    await this.resource(args.apiVersion, args.kind);
    try {
      const list = toJson<{
        items?: KubernetesObject[];
        // the client names the token `_continue`
        metadata?: { continue?: string; _continue?: string; resourceVersion?: string };
      }>(
        await this.objects.list(
          args.apiVersion,
          args.kind,
          args.namespace,
          undefined,
          undefined,
          undefined,
          args.fieldSelector,
          args.labelSelector,
          args.limit,
          args.continue,
        ),
      );
      return {
        items: (list.items ?? []).map((i) => withKind(i, args.apiVersion, args.kind)),
        ...((list.metadata?._continue ?? list.metadata?.continue)
          ? { continue: list.metadata._continue ?? list.metadata.continue }
          : {}),
        ...(list.metadata?.resourceVersion ? { resourceVersion: list.metadata.resourceVersion } : {}),
      };
    } catch (error) {
      throw toAgentError(error);
    }
  }

  async namespaces(): Promise<string[]> {
    const list = await this.list({ apiVersion: 'v1', kind: 'Namespace' });
    return list.items.map((n) => n.metadata.name).sort();
  }

  /** What the hello reports. A fact the agent may not read (a limited agent's RBAC) is left empty. */
  async facts(limitedNamespaces: string[] | null): Promise<ClusterFacts> {
    const soft = async <T>(fn: () => Promise<T>, fallback: T): Promise<T> => {
      try {
        return await fn();
      } catch {
        return fallback;
      }
    };
    const [version, nodes, namespaces, resources, storage] = await Promise.all([
      soft(async () => (await this.kc.makeApiClient(VersionApi).getCode()).gitVersion, 'unknown'),
      soft(async () => (await this.list({ apiVersion: 'v1', kind: 'Node' })).items, [] as KubernetesObject[]),
      limitedNamespaces ? Promise.resolve(limitedNamespaces) : soft(() => this.namespaces(), [] as string[]),
      soft(() => this.resources(true), [] as ApiResourceInfo[]),
      soft(
        async () => (await this.list({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass' })).items,
        [] as KubernetesObject[],
      ),
    ]);
    const groups = new Set(resources.map((r) => r.group));
    const installedAddons = [
      ...new Set(
        Object.entries(AGENT_ADDON_GROUPS)
          .filter(([g]) => groups.has(g))
          .map(([, a]) => a),
      ),
    ];
    return {
      kubernetesVersion: version,
      nodeCount: nodes.length,
      totalVcpu: nodes.reduce((sum, n) => sum + parseCpu(capacityCpu(n)), 0),
      namespaces,
      installedAddons: installedAddons.sort(),
      storageClasses: storage.map(storageClassInfo),
    };
  }

  /**
   * Streams a container's log into `onData`; `done` resolves when the log ends. A followed log cut
   * off by the API server or the network is opened again where it was (logs.ts).
   */
  async logs(
    options: LogOptions,
    onData: (text: string) => void,
  ): Promise<{ abort(): void; done: Promise<void> }> {
    const container = options.container ?? (await this.defaultContainer(options.namespace, options.pod));
    try {
      const handle = await readLog(this.kc, { ...options, container }, onData, this.logFollow);
      return {
        abort: handle.abort,
        done: handle.done.catch((error: unknown) => Promise.reject(toAgentError(error))),
      };
    } catch (error) {
      throw toAgentError(error);
    }
  }

  private async defaultContainer(namespace: string, pod: string): Promise<string> {
    const found = await this.get({ apiVersion: 'v1', kind: 'Pod', name: pod, namespace });
    if (!found) throw new AgentError('not_found', `Pod "${pod}" not found in namespace ${namespace}`);
    const containers = (
      (found.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []
    ).map((c) => c.name);
    if (containers.length === 0) throw new AgentError('invalid', `Pod "${pod}" has no containers`);
    return containers[0]!;
  }

  /** Opens an exec session; output goes to `onOutput`, the status (exit) to `onExit`. */
  async exec(
    options: { namespace: string; pod: string; container?: string; command: string[]; tty: boolean },
    onOutput: (channel: 'stdout' | 'stderr', text: string) => void,
    onExit: (status: { status?: string; message?: string; exitCode: number }) => void,
  ): Promise<ExecHandle> {
    const container = options.container ?? (await this.defaultContainer(options.namespace, options.pod));
    const output = (channel: 'stdout' | 'stderr') =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          onOutput(channel, chunk.toString('utf8'));
          callback();
        },
      });
    // A stdout with a size is what the client reads resizes from.
    const stdout = Object.assign(output('stdout'), { rows: 24, columns: 80 });
    const stderr = options.tty ? null : output('stderr');
    const stdin = new PassThrough();
    let exited = false;
    const exit = (status: { status?: string; message?: string; exitCode: number }) => {
      if (exited) return;
      exited = true;
      onExit(status);
    };
    try {
      const socket = await new Exec(this.kc).exec(
        options.namespace,
        options.pod,
        container,
        options.command,
        stdout,
        stderr,
        stdin,
        options.tty,
        (status) => {
          const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
          exit({
            ...(status.status ? { status: status.status } : {}),
            ...(status.message ? { message: status.message } : {}),
            exitCode: status.status === 'Success' ? 0 : Number(cause?.message ?? 1),
          });
        },
      );
      socket.on('close', () => exit({ status: 'Closed', exitCode: 0 }));
      return {
        stdin,
        resize: (cols, rows) => {
          stdout.columns = cols;
          stdout.rows = rows;
          stdout.emit('resize');
        },
        close: () => {
          stdin.end();
          socket.close();
        },
      };
    } catch (error) {
      throw toAgentError(error);
    }
  }

  /**
   * One watch request on a kind, with bookmarks; each event goes to `onEvent` (BOOKMARK and ERROR
   * too, as the API server sends them), `onEnd` when the connection ends. Resolves to a stop
   * function. keepWatching (watch.ts) resumes and re-lists around it.
   */
  async watch(
    args: {
      apiVersion: string;
      kind: string;
      namespace?: string;
      labelSelector?: string;
      fieldSelector?: string;
      resourceVersion?: string;
      /** the API server ends the watch after this long */
      timeoutSeconds?: number;
    },
    onEvent: (type: string, object: KubernetesObject) => void,
    onEnd: (error: unknown) => void,
  ): Promise<{ abort(): void }> {
    const info = await this.resource(args.apiVersion, args.kind);
    const base = info.group ? `/apis/${info.apiVersion}` : `/api/${info.version}`;
    const path =
      info.namespaced && args.namespace
        ? `${base}/namespaces/${args.namespace}/${info.name}`
        : `${base}/${info.name}`;
    const query: Record<string, string> = {};
    if (args.labelSelector) query.labelSelector = args.labelSelector;
    if (args.fieldSelector) query.fieldSelector = args.fieldSelector;
    if (args.resourceVersion) query.resourceVersion = args.resourceVersion;
    if (args.timeoutSeconds) query.timeoutSeconds = String(args.timeoutSeconds);
    // Bookmarks move the resume point on while nothing the watch selects changes.
    query.allowWatchBookmarks = 'true';
    const controller = await new Watch(this.kc).watch(
      path,
      query,
      (type: string, object: KubernetesObject) =>
        onEvent(
          type,
          type === 'ERROR' || type === 'BOOKMARK' ? object : withKind(object, args.apiVersion, args.kind),
        ),
      onEnd,
    );
    return { abort: () => controller.abort() };
  }
}
