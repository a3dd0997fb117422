import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeApiServer, type KubeApiServerOptions } from '../kube-api-server.js';
import { afterAll, beforeAll } from 'vitest';
import { KUBE_TOOLS_MISSING, kubeTools, type KubeTools } from '../kube-tools.js';

/**
 * What the contract tests drive the real kubectl and helm against: the test API server (started
 * here on a free loopback port), or, when `KUBECONFIG` is set, the cluster it points at. Every run
 * has its own HOME, XDG and HELM directories in a temporary folder, so nothing of the user's leaks
 * in (caches, plugins, repositories) and nothing is left behind.
 */

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  /** kill the process after this many ms (default 20 s) */
  timeoutMs?: number;
  /** extra environment */
  env?: Record<string, string>;
  /** called with stdout as it grows; return true to stop the process */
  until?: (stdout: string) => boolean;
}

export interface Target {
  /** the test API server, or undefined when the suite targets a real cluster */
  server?: KubeApiServer;
  /** whether the test server runs its test controllers (a real cluster always has its own) */
  controllers: boolean;
  dir: string;
  kubeconfig: string;
  kubectl(args: string[], options?: RunOptions): Promise<RunResult>;
  helm(args: string[], options?: RunOptions): Promise<RunResult>;
  /** writes a file into the run's temporary folder and returns its path */
  file(name: string, content: string): string;
  close(): Promise<void>;
}

/**
 * The real cluster's kubeconfig when the suite should target one instead of the test server: both
 * `KUBECONFIG` and `SLIPWAY_REAL_CLUSTER=1`, as for the agent's suite (docs/agent-real-cluster.md),
 * so that a developer's everyday KUBECONFIG never sends a test run to a shared cluster.
 */
export const realCluster =
  process.env.SLIPWAY_REAL_CLUSTER === '1' ? process.env.KUBECONFIG?.trim() || undefined : undefined;
/** `SLIPWAY_REAL_CLUSTER_CONTEXT` picks a context other than the kubeconfig's current one. */
const realContext = realCluster ? process.env.SLIPWAY_REAL_CLUSTER_CONTEXT?.trim() || undefined : undefined;

export const tools: KubeTools | undefined = kubeTools();

/** Runs a binary, collecting its output; never throws for a non-zero exit. */
export function run(
  binary: string,
  args: string[],
  env: Record<string, string>,
  options: RunOptions = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 20_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stopped && options.until?.(stdout)) {
        stopped = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Starts a target: the test API server with `options` (or the real cluster of `KUBECONFIG`), a
 * temporary folder and the environment every kubectl and helm run gets.
 */
export async function startTarget(options: KubeApiServerOptions = {}): Promise<Target> {
  if (!tools) throw new Error('kubectl and helm are not available');
  const dir = mkdtempSync(join(tmpdir(), 'slipway-kube-contract-'));
  const server = realCluster ? undefined : await KubeApiServer.start(options);
  const kubeconfig = realCluster ?? join(dir, 'kubeconfig');
  if (server) writeFileSync(kubeconfig, server.kubeconfig(), { mode: 0o600 });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    KUBECONFIG: kubeconfig,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    XDG_DATA_HOME: join(dir, 'data'),
    HELM_CONFIG_HOME: join(dir, 'helm', 'config'),
    HELM_CACHE_HOME: join(dir, 'helm', 'cache'),
    HELM_DATA_HOME: join(dir, 'helm', 'data'),
    KUBECTL_KUBERC: 'false',
    LANG: 'C',
    TZ: 'UTC',
  };
  const withEnv = (extra?: Record<string, string>) => ({ ...env, ...extra });
  return {
    ...(server ? { server } : {}),
    controllers: !server || !!options.controllers,
    dir,
    kubeconfig,
    kubectl: (args, o = {}) =>
      run(tools.kubectl, realContext ? ['--context', realContext, ...args] : args, withEnv(o.env), o),
    helm: (args, o = {}) =>
      run(tools.helm, realContext ? ['--kube-context', realContext, ...args] : args, withEnv(o.env), o),
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    async close() {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A unique namespace name for one test file (so the suite can share a real cluster). */
export const uniqueNamespace = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** Polls until `check` returns a truthy value (short intervals, no fixed sleeps). */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Parsed kubectl output, walked freely by the assertions (a wrong path fails the test anyway). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** Parses `kubectl … -o json` output, failing with kubectl's stderr when it did not succeed. */
export function json<T = Record<string, Loose>>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`kubectl failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** A Deployment manifest as YAML (one container named app, port 8080). */
export function deploymentYaml(
  name: string,
  namespace: string,
  options: { image?: string; replicas?: number; extra?: string; labels?: string } = {},
): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespace}
${options.labels ? `  labels:\n${options.labels}\n` : ''}spec:
  replicas: ${options.replicas ?? 1}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: app
        image: ${options.image ?? 'nginx:1.27'}
        ports:
        - containerPort: 8080
          name: http
${options.extra ?? ''}`;
}

/**
 * One target per test file (or describe): started before its tests, closed after them, with a
 * namespace of its own created through kubectl.
 */
export function useTarget(prefix: string, options: KubeApiServerOptions = {}) {
  const ctx = {} as { t: Target; ns: string };
  beforeAll(async () => {
    ctx.t = await startTarget(options);
    ctx.ns = uniqueNamespace(prefix);
    const created = await ctx.t.kubectl(['create', 'namespace', ctx.ns]);
    if (created.code !== 0) throw new Error(`kubectl create namespace failed: ${created.stderr}`);
    if (realCluster) {
      // Labelled as the agent's real-cluster suite does, so leftovers of a killed run are found.
      await ctx.t.kubectl(['label', 'namespace', ctx.ns, 'app.kubernetes.io/created-by=slipway-tests']);
      console.info(`kube contract: on the real cluster of KUBECONFIG, namespace ${ctx.ns}`);
    }
  });
  afterAll(async () => {
    if (realCluster && ctx.ns) await ctx.t?.kubectl(['delete', 'namespace', ctx.ns, '--wait=false']);
    await ctx.t?.close();
  });
  return ctx;
}

/**
 * Says once per test run (not once per file: each file's worker has its own module state) why
 * the contract suite is skipped, using a marker file named after the Vitest process.
 */
export function skipLine(): boolean {
  if (tools) return false;
  try {
    writeFileSync(join(tmpdir(), `slipway-kube-contract-skip-${process.ppid}`), '', { flag: 'wx' });
    console.warn(KUBE_TOOLS_MISSING);
  } catch {
    // another file of this run has said it
  }
  return true;
}

/** Splits a stream of concatenated JSON documents (`kubectl get -w -o json`) into values. */
export function parseJsonStream<T = Record<string, Loose>>(text: string): T[] {
  const out: T[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) {
      out.push(JSON.parse(text.slice(start, i + 1)) as T);
    }
  }
  return out;
}

/**
 * Makes a pod run: on the test server its phase is set to Running (what a kubelet reports); on a
 * real cluster, waits for it to be Ready.
 */
export async function podRunning(t: Target, namespace: string, name: string): Promise<void> {
  const server = t.server;
  if (server && !t.controllers) {
    server.setPodPhase(namespace, name, 'Running');
    return;
  }
  if (server) {
    // The test controllers schedule the pod and start it, as a scheduler and a kubelet would.
    const status = () =>
      server.get('v1', 'Pod', name, namespace)?.status as { phase?: string; podIP?: string };
    await until(() => status()?.phase === 'Running' && !!status()?.podIP, 15_000, `pod ${name} to run`);
    return;
  }
  const waited = await t.kubectl(
    ['wait', '--for=condition=Ready', `pod/${name}`, '-n', namespace, '--timeout=60s'],
    {
      timeoutMs: 65_000,
    },
  );
  if (waited.code !== 0) throw new Error(`pod ${name} did not become ready: ${waited.stderr}`);
}

/** A pod manifest running busybox with a shell script (sleeping by default). */
export function podYaml(name: string, namespace: string, script = 'sleep 3600', labels = ''): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
  labels:
    app: ${name}
${labels}spec:
  terminationGracePeriodSeconds: 0
  restartPolicy: Never
  containers:
  - name: main
    image: busybox:1.36
    command: ["sh", "-c", ${JSON.stringify(script)}]
`;
}
