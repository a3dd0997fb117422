import { chmodSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { defaultConcurrency } from './concurrency.js';
import { LocalExecutor } from './local-executor.js';
import { StepSpawner } from './step-spawner.js';
import type { NetAllowEntry } from './sandbox/network-policy.js';
import { probeSandbox, type SandboxSupport } from './sandbox/probe.js';
import { ImageStore, type RegistryCredentials } from './images/index.js';
import type { StepImages } from './sandbox/task-sandbox.js';

/** The local executor's settings from the configuration (README: Configuration). */
export interface LocalExecutorSettings {
  /** SLIPWAY_LOCAL_EXECUTOR: `sandbox` (default) or `unsandboxed` (one organisation only). */
  mode: 'sandbox' | 'unsandboxed';
  /** SLIPWAY_STEP_SPAWNER. */
  stepSpawner: 'helper' | 'in-process';
  /** SLIPWAY_SANDBOX_NET_ALLOW. */
  netAllow: NetAllowEntry[];
  /** SLIPWAY_SANDBOX_UID: the unprivileged host user (and group) sandboxes run as under root. */
  sandboxUid: number;
  /** SLIPWAY_SANDBOX_MAX_PROCESSES: processes one sandboxed step may run at once (512 by default). */
  maxProcesses?: number;
  /** SLIPWAY_SANDBOX_READ_ONLY_PATHS: host directories every sandbox sees read-only. */
  readOnlyPaths?: string[];
  /** SLIPWAY_STEP_IMAGES: `pull` each step's image into `<data dir>/images`, or use the host's system read-only. */
  images: 'pull' | 'host';
}

export interface LocalExecutorStatus {
  sandboxed: boolean;
  /** One line for the start-up log. */
  summary: string;
  support?: SandboxSupport;
}

const REFUSAL_CACHE_MS = 5000;

/** What the sandbox limits, in words for the start-up log. */
export function limitsSummary(
  support: SandboxSupport,
  settings: Pick<LocalExecutorSettings, 'maxProcesses' | 'images'>,
): string {
  const max = settings.maxProcesses ?? 512;
  const { prlimit, staticBusybox } = support.limiter;
  const processes =
    settings.images === 'pull'
      ? staticBusybox
        ? `at most ${max} processes per step`
        : 'process count per step: not limited (no statically linked busybox on this host to set it inside images)'
      : prlimit
        ? `at most ${max} processes per step`
        : 'process count per step: not limited (prlimit is not installed)';
  const cgroup = support.cgroup.limits
    ? 'memory and CPU limits: available'
    : `memory and CPU limits: not available (${support.cgroup.reason})`;
  return `${processes}; ${cgroup}`;
}

/** The OCI image store behind `SLIPWAY_STEP_IMAGES=pull`. */
function pulledImages(cacheDir: string): StepImages {
  const store = new ImageStore({ cacheDir });
  return {
    pull: async (reference, signal, auths) => {
      const image = await store.pull(reference, auths as RegistryCredentials | undefined, signal);
      return { rootfs: image.rootfs, config: image.config };
    },
  };
}

/**
 * bwrap resolves what it binds as the sandbox's host user, so the data directory and the
 * directories under it that hold runs must let others pass (o+x, never read). Answers why not.
 */
function makeTraversable(dataDir: string, hostUid: number): string | undefined {
  for (const dir of [dataDir, ...['runs', 'scratch', 'images'].map((d) => path.join(dataDir, d))]) {
    mkdirSync(dir, { recursive: true, mode: 0o711 });
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
  }
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const stat = statSync(dir);
    if (stat.uid !== hostUid && (stat.mode & 0o001) === 0)
      return `${dir} is not searchable by other users (mode ${(stat.mode & 0o777).toString(8)}); allow it (chmod o+x ${dir}) or put SLIPWAY_DATA_DIR elsewhere`;
    if (dir === path.dirname(dir)) return undefined;
  }
}

/**
 * The one place the local executor is made (decision 019): sandboxed when this host can, else
 * refusing every task with the reason; unsandboxed only when the operator says so, and then only
 * while a single organisation uses the server.
 */
export function createLocalExecutor(
  settings: LocalExecutorSettings,
  dataDir: string,
  organisationCount: () => Promise<number>,
): { executor: LocalExecutor; status: LocalExecutorStatus } {
  const base = {
    scratchRoot: path.join(dataDir, 'scratch'),
    // the step supervisor of this data directory: it outlives the server, and a restarted server
    // finds it there and re-attaches to the steps it kept running
    spawner:
      settings.stepSpawner === 'in-process'
        ? ('in-process' as const)
        : new StepSpawner('helper', defaultConcurrency(), path.join(dataDir, 'supervisor')),
  };
  if (settings.mode === 'unsandboxed') {
    let checked: { at: number; refusal: string | undefined } | undefined;
    const refuse = async () => {
      if (checked && Date.now() - checked.at < REFUSAL_CACHE_MS) return checked.refusal;
      const count = await organisationCount();
      const refusal =
        count > 1
          ? `Local steps are refused: this server runs them unsandboxed (SLIPWAY_LOCAL_EXECUTOR=unsandboxed), which is only for a single organisation, and ${count} organisations use it`
          : undefined;
      checked = { at: Date.now(), refusal };
      return refusal;
    };
    return {
      executor: new LocalExecutor({ ...base, refuse }),
      status: {
        sandboxed: false,
        summary:
          'pipeline steps run UNSANDBOXED on this host as the server user (SLIPWAY_LOCAL_EXECUTOR=unsandboxed): for a single-user installation only',
      },
    };
  }
  const hostUser = { uid: settings.sandboxUid, gid: settings.sandboxUid };
  let support = probeSandbox({ stateDir: path.join(dataDir, 'sandbox'), hostUser });
  if (support.available && support.root) {
    const blocked = makeTraversable(dataDir, hostUser.uid);
    if (blocked) support = { ...support, available: false, reason: blocked };
  }
  if (!support.available) {
    const refusal = `Local steps cannot run: no sandbox can be made on this host (${support.reason}). Install bubblewrap, or set SLIPWAY_LOCAL_EXECUTOR=unsandboxed for a single-user installation`;
    return {
      executor: new LocalExecutor({ ...base, refuse: async () => refusal }),
      status: { sandboxed: false, summary: refusal, support },
    };
  }
  const executor = new LocalExecutor({
    ...base,
    sandbox: {
      support,
      hostUser,
      netAllow: settings.netAllow,
      readOnlyPaths: settings.readOnlyPaths ?? [],
      maxProcesses: settings.maxProcesses ?? 512,
      ...(settings.images === 'pull' ? { images: pulledImages(path.join(dataDir, 'images')) } : {}),
    },
  });
  const network = support.network
    ? `each task has its own network (host loopback and private addresses refused${
        settings.netAllow.length > 0 ? `, except ${settings.netAllow.length} allowed` : ''
      })`
    : support.networkReason;
  return {
    executor,
    status: {
      sandboxed: true,
      summary: `pipeline steps run sandboxed (bubblewrap${support.root ? `, host uid ${hostUser.uid}` : ''}; ${
        settings.images === 'pull' ? 'step images pulled' : "the host's system as each step's root, read-only"
      }); ${network}; ${limitsSummary(support, settings)}`,
      support,
    },
  };
}
