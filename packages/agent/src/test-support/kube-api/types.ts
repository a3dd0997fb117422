/** Shared shapes of the test Kubernetes API server (see README.md in this folder). */

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

/** What an authorization check is about (the attributes of a SubjectAccessReview). */
export interface AccessAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface KubeApiServerOptions {
  /** when set, every request must carry `Authorization: Bearer <token>` */
  token?: string;
  gitVersion?: string;
  /** nodes and their CPU capacity (default one node with 4 CPUs) */
  nodes?: { name: string; cpu: string }[];
  /** extra kinds (CRDs), e.g. tekton.dev/v1 PipelineRun */
  kinds?: KindInfo[];
  /** CustomResourceDefinitions (parsed JSON) whose kinds are served with their schemas */
  customResourceDefinitions?: unknown[];
  /** what an exec session does (default: a tiny shell; see defaultExec) */
  exec?: (session: ExecSession) => void;
  /** serve HTTPS with a self-signed certificate made at start; kubeconfig() then carries its CA */
  tls?: boolean;
  /** run the test controllers (Deployment → ReplicaSet → Pods, pods run, jobs complete) */
  controllers?: boolean;
  /** answer true to refuse an access review (the server grants everything by default) */
  deny?: (attrs: AccessAttributes) => boolean;
  /** how often watches with allowWatchBookmarks get a BOOKMARK (default 1000 ms) */
  bookmarkIntervalMs?: number;
}

export class HttpError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const clone = <T>(v: T): T => structuredClone(v);
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Maps merge key by key; lists and scalars are replaced (a JSON merge patch, RFC 7386). */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return clone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = deepMerge(base[key], value);
  }
  return out;
}

export function getPath(obj: unknown, dotted: string): unknown {
  let current: unknown = obj;
  for (const part of dotted.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[part];
  }
  return current;
}
