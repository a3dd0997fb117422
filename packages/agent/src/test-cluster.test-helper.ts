import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeClient, loadKubeConfig } from './kube.js';
import { KubeApiServer } from './test-support/kube-api-server.js';

type KubeApiServerStartOptions = NonNullable<Parameters<typeof KubeApiServer.start>[0]>;

/**
 * The cluster an agent test runs against: the test API server (the default), or a real cluster
 * when `KUBECONFIG` is set and `SLIPWAY_REAL_CLUSTER=1` (both, so a developer whose KUBECONFIG
 * points at production is not surprised; `SLIPWAY_REAL_CLUSTER_CONTEXT` picks a context other
 * than the current one). On a real cluster each suite works in a throwaway namespace
 * `slipway-test-<random>`, deleted afterwards; checks that drive the cluster by hand (status,
 * dropped streams, compaction) need the test API server and are skipped there. See
 * docs/agent-real-cluster.md.
 */

export const REAL_CLUSTER = Boolean(process.env.KUBECONFIG) && process.env.SLIPWAY_REAL_CLUSTER === '1';

export interface TestCluster {
  /** true against a real cluster */
  real: boolean;
  /** the test API server, or null on a real cluster */
  api: KubeApiServer | null;
  /** a kubeconfig file for the cluster (the agent's `--kubeconfig`) */
  kubeconfigFile: string;
  /** the context to use in it */
  context: string;
  kube: KubeClient;
  /** the namespace the suite works in: created before, deleted after */
  namespace: string;
  close(): Promise<void>;
}

/** The one line a suite prints when it runs on the test API server only. */
export const SIMULATED_NOTE =
  'agent suite: on the test API server (set KUBECONFIG and SLIPWAY_REAL_CLUSTER=1 to run it against a real cluster; docs/agent-real-cluster.md)';

/**
 * Starts (or connects to) the suite's cluster and makes its throwaway namespace. `announce`: print
 * the one line saying the suite runs on the test API server (one suite does, not every one).
 */
export async function startTestCluster(
  options: KubeApiServerStartOptions = {},
  { announce = false }: { announce?: boolean } = {},
): Promise<TestCluster> {
  const namespace = `slipway-test-${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cluster-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (!REAL_CLUSTER) {
    if (announce) console.info(SIMULATED_NOTE);
    const api = await KubeApiServer.start(options);
    const kubeconfigFile = path.join(dir, 'kubeconfig');
    writeFileSync(kubeconfigFile, api.kubeconfig('test'));
    const kube = new KubeClient(loadKubeConfig({ kubeconfig: kubeconfigFile, context: 'test' }));
    api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    return {
      real: false,
      api,
      kubeconfigFile,
      context: 'test',
      kube,
      namespace,
      close: async () => {
        await api.close();
        removeDir();
      },
    };
  }
  // KUBECONFIG may list several files; the client merges them as kubectl does.
  const context = process.env.SLIPWAY_REAL_CLUSTER_CONTEXT;
  const kc = loadKubeConfig(context ? { context } : {});
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfigFile, kc.exportConfig());
  const kube = new KubeClient(kc);
  console.info(
    `agent suite: on the real cluster of context "${kc.getCurrentContext()}", namespace ${namespace}`,
  );
  await kube.apply(
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, labels: { 'app.kubernetes.io/created-by': 'slipway-tests' } },
    },
    { force: false, dryRun: false },
  );
  return {
    real: true,
    api: null,
    kubeconfigFile,
    context: kc.getCurrentContext(),
    kube,
    namespace,
    close: async () => {
      try {
        await kube.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace }, 'Background');
      } finally {
        removeDir();
      }
    },
  };
}
