import { lstat, lchown, mkdir, readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Pod, StepSpawner } from '../step-spawner.js';
import type { ResolvedStep, ResolvedTaskRun } from '../types.js';
import type { NetAllowEntry } from './network-policy.js';
import type { SandboxSupport } from './probe.js';
import type { TaskIo } from '../executor.js';
import type { TaskLog } from '../task-log.js';
import { directoryInside } from './host-paths.js';
import { recordExitCode, stepDir, stepResultDirs, type StepDirs } from '../step-values.js';
import { Sidecars } from './sidecars.js';
import type { StepImage, StepSandbox } from './step-sandbox.js';
import { emptyDirs, limitProcesses, refuseUnprovidable, volumeMounts } from './task-volumes.js';
import {
  podPlan,
  sandboxCommand,
  type RootEntry,
  type SandboxMount,
  type SandboxRoot,
  type SandboxTools,
  type SpawnPlan,
} from './sandbox-command.js';

export type { StepImage } from './step-sandbox.js';

/** A docker config's `auths`: registry host → credentials. */
export type RegistryAuths = Record<string, Record<string, string | undefined>>;

export interface StepImages {
  /** Pulls (or finds in the cache) a step's image; rejects with the image name and the registry's answer. */
  pull(reference: string, signal?: AbortSignal, auths?: RegistryAuths): Promise<StepImage>;
}

/** The workspace secret whose `.dockerconfigjson` key authenticates image pulls (a Kubernetes dockerconfigjson Secret). */
export const PULL_SECRET = { name: 'docker-config', key: '.dockerconfigjson' } as const;

/** How the local executor sandboxes steps (decision 019). */
export interface SandboxOptions {
  support: SandboxSupport;
  /** The unprivileged host user sandboxes run as when the server runs as root. */
  hostUser: { uid: number; gid: number };
  netAllow: readonly NetAllowEntry[];
  /** Host directories every step sees read-only at the same path (an operator's mirror, a cache). */
  readOnlyPaths?: readonly string[];
  /** `pull`: each step's root is its image; absent: the host's system, read-only. */
  images?: StepImages;
  /** RLIMIT_NPROC of each step, set inside its sandbox (SLIPWAY_SANDBOX_MAX_PROCESSES); absent: none. */
  maxProcesses?: number;
}

/** Tekton's paths inside a step's container. */
export const TEKTON = {
  workspace: '/workspace',
  home: '/tekton/home',
  results: '/tekton/results',
  steps: '/tekton/steps',
  scripts: '/tekton/scripts',
  /** `$(credentials.path)`: empty (no creds-init runs here). */
  credentials: '/tekton/creds',
} as const;

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Makes `dir` and everything under it the sandbox user's, unless it already is (most are). */
async function ensureOwned(dir: string, uid: number, gid: number): Promise<void> {
  const stat = await lstat(dir);
  if (stat.uid === uid && stat.gid === gid) return;
  await lchown(dir, uid, gid);
  if (!stat.isDirectory()) return;
  for (const entry of await readdir(dir)) await ensureOwned(join(dir, entry), uid, gid);
}

function imageRoot(rootfs: string, entries: string[], resolvConf: string): SandboxRoot {
  const root: RootEntry[] = entries
    .filter((name) => !['proc', 'dev', 'tmp', 'workspace', 'tekton'].includes(name))
    .map((name) => ({ path: `/${name}`, source: join(rootfs, name) }));
  return { entries: root, resolvConf, varTmp: false };
}

/**
 * One attempt of a task in the sandbox: its scratch directories (home, scripts, step exit codes,
 * the `/workspace` root), its network namespace, and the command line of each step.
 */
export class TaskSandbox implements StepSandbox {
  private pod: Pod | undefined;
  private authsRead: Promise<RegistryAuths | undefined> | undefined;
  private readonly images = new Map<string, { image: StepImage; root: SandboxRoot }>();
  private sidecars: Sidecars | undefined;
  /** Resolves once the sidecars stopped by `stop` have ended. */
  stopped: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: SandboxOptions,
    private readonly run: ResolvedTaskRun,
    private readonly scratchDir: string,
    /** The workspace's registry credentials, read once when the first image is pulled. */
    private readonly auths: () => Promise<RegistryAuths | undefined>,
  ) {}

  static async prepare(
    options: SandboxOptions,
    run: ResolvedTaskRun,
    scratchDir: string,
    spawner: StepSpawner,
    attempt: number,
    auths: () => Promise<RegistryAuths | undefined> = async () => undefined,
  ): Promise<TaskSandbox> {
    const sandbox = new TaskSandbox(options, run, scratchDir, auths);
    refuseUnprovidable(run, options.support.network && !run.noNetwork);
    // a subPath must stay inside its workspace and pass through no link a step planted
    for (const mount of run.mounts ?? [])
      await directoryInside(mount.base, mount.hostPath, `workspace "${mount.name}"'s subPath`);
    const owner = sandbox.owner;
    if (owner) {
      for (const volume of run.volumes ?? [])
        if (volume.hostPath) await ensureOwned(volume.hostPath, ...owner);
      for (const mount of run.mounts ?? []) await ensureOwned(mount.hostPath, ...owner);
      if (run.results.length > 0) await ensureOwned(run.resultsDir, ...owner);
    }
    if (options.support.network && !run.noNetwork) {
      try {
        const key = run.key ? `${run.key}:${attempt}:pod` : undefined;
        sandbox.pod = await spawner.pod(podPlan(options.support.tools, options.netAllow), key);
      } catch (error) {
        throw new Error(`its network could not be made: ${(error as Error).message}`);
      }
    }
    return sandbox;
  }

  /**
   * Starts the task's sidecars (see sidecars.ts) and returns once every one is ready; throws
   * naming a sidecar that ended first or was not ready in time. `stop` ends them.
   */
  async startSidecars(io: TaskIo, log: TaskLog, signal: AbortSignal): Promise<void> {
    if (!this.run.sidecars?.length) return;
    this.sidecars = new Sidecars(
      this,
      this.run.sidecars,
      this.scratchDir,
      this.run.tenant,
      () => this.pod?.pid,
    );
    await this.sidecars.start(io, log, signal, this.run.timeoutMs);
  }

  get tools(): SandboxTools {
    return this.options.support.tools;
  }

  get pullsImages(): boolean {
    return this.options.images !== undefined;
  }

  /** uid and gid of the sandbox's host user, when the server runs as root. */
  get owner(): [number, number] | undefined {
    const { support, hostUser } = this.options;
    return support.root ? [hostUser.uid, hostUser.gid] : undefined;
  }

  /** The scratch directories the first step's spawn creates (owned by the sandbox user). */
  get scratchDirs(): string[] {
    return [
      ...['home', 'scripts', 'steps', 'workspace', 'creds'].map((d) => join(this.scratchDir, d)),
      ...stepResultDirs(this.run, join(this.scratchDir, 'steps')),
      ...emptyDirs(this.run, this.scratchDir),
    ];
  }

  get scriptsDir(): { host: string; inside: string } {
    return { host: join(this.scratchDir, 'scripts'), inside: TEKTON.scripts };
  }

  /** The step's image (pulled once per attempt), or the host's system. */
  async image(step: ResolvedStep, signal: AbortSignal): Promise<{ root: SandboxRoot; image?: StepImage }> {
    const { images, support } = this.options;
    if (!images) return { root: { entries: support.hostRoot, resolvConf: support.resolvConf, varTmp: true } };
    const known = this.images.get(step.image);
    if (known) return known;
    this.authsRead ??= this.auths().catch(() => undefined);
    const image = await images.pull(step.image, signal, await this.authsRead);
    const entries = await readdir(image.rootfs);
    const hasResolv = await lstat(join(image.rootfs, 'etc', 'resolv.conf')).then(
      (s) => s.isFile(),
      () => false,
    );
    const root = imageRoot(image.rootfs, entries, support.resolvConf);
    if (!hasResolv) delete root.resolvConf;
    root.varTmp = await lstat(join(image.rootfs, 'var', 'tmp')).then(
      (s) => s.isDirectory(),
      () => false,
    );
    const found = { image, root };
    this.images.set(step.image, found);
    return found;
  }

  /** The step's environment: the image's, then Tekton's HOME, then the step's own. */
  env(image: StepImage | undefined, own: Record<string, string>): Record<string, string> {
    const fromImage = Object.fromEntries(
      (image?.config.env ?? []).map((kv) => {
        const at = kv.indexOf('=');
        return at < 0 ? [kv, ''] : [kv.slice(0, at), kv.slice(at + 1)];
      }),
    );
    return {
      PATH: DEFAULT_PATH,
      ...fromImage,
      HOME: TEKTON.home,
      LANG: 'C.UTF-8',
      // buildah and podman: the user namespace is already made (the sandbox's)
      _CONTAINERS_USERNS_CONFIGURED: '1',
      ...own,
    };
  }

  /** The working directory inside, created (as Tekton's init does) when it lies under /workspace. */
  async workingDir(step: ResolvedStep, image: StepImage | undefined): Promise<string> {
    const wanted = step.workingDir
      ? posix.resolve(TEKTON.workspace, step.workingDir)
      : image?.config.workingDir || TEKTON.workspace;
    // a volume's subPath, like a workspace's, passes through no link a step planted
    for (const mount of volumeMounts(this.run, step, this.scratchDir)) {
      if (!mount.base || mount.base === mount.hostPath) continue;
      await mkdir(mount.base, { recursive: true });
      await directoryInside(mount.base, mount.hostPath, `the subPath of the volume mounted at ${mount.path}`);
    }
    const at = this.hostPathOf(wanted);
    if (at !== undefined) {
      await mkdir(at.base, { recursive: true });
      await directoryInside(at.base, at.host, `workingDir "${wanted}"`);
      const owner = this.owner;
      if (owner && at.host !== at.base) await ensureOwned(at.host, ...owner);
    }
    return wanted;
  }

  /** The host directory behind a path under /workspace, and the mount's directory it lies in. */
  private hostPathOf(inside: string): { base: string; host: string } | undefined {
    const mounts = [...(this.run.mounts ?? [])].sort((a, b) => b.path.length - a.path.length);
    for (const mount of mounts) {
      if (inside === mount.path || inside.startsWith(`${mount.path}/`))
        return { base: mount.hostPath, host: join(mount.hostPath, posix.relative(mount.path, inside)) };
    }
    if (inside === TEKTON.workspace || inside.startsWith(`${TEKTON.workspace}/`)) {
      const base = join(this.scratchDir, 'workspace');
      return { base, host: join(base, posix.relative(TEKTON.workspace, inside)) };
    }
    return undefined;
  }

  private mounts(step: ResolvedStep): SandboxMount[] {
    const at = (d: string) => join(this.scratchDir, d);
    const mounts: SandboxMount[] = [
      { hostPath: at('workspace'), path: TEKTON.workspace, readOnly: false },
      ...(this.run.mounts ?? []).map((m) => ({ hostPath: m.hostPath, path: m.path, readOnly: m.readOnly })),
      { hostPath: at('home'), path: TEKTON.home, readOnly: false },
      { hostPath: at('scripts'), path: TEKTON.scripts, readOnly: true },
      { hostPath: at('steps'), path: TEKTON.steps, readOnly: true },
      // the step's own results (`$(step.results.r.path)`); the other steps' it can only read
      ...(this.run.steps.some((s) => s.name === step.name)
        ? [
            {
              hostPath: join(at('steps'), stepDir(step.name), 'results'),
              path: `${TEKTON.steps}/${stepDir(step.name)}/results`,
              readOnly: false,
            },
          ]
        : []),
      { hostPath: at('creds'), path: TEKTON.credentials, readOnly: false },
    ];
    for (const path of this.options.readOnlyPaths ?? [])
      mounts.push({ hostPath: path, path, readOnly: true });
    if (this.run.results.length > 0)
      mounts.push({ hostPath: this.run.resultsDir, path: TEKTON.results, readOnly: false });
    mounts.push(...volumeMounts(this.run, step, this.scratchDir));
    return mounts;
  }

  /** The sandboxed command line of one step. */
  command(
    step: ResolvedStep,
    argv: string[],
    cwd: string,
    image: StepImage | undefined,
    root: SandboxRoot,
  ): SpawnPlan {
    const user = /^\d+$/.test(image?.config.user.split(':')[0] ?? '')
      ? Number(image!.config.user.split(':')[0])
      : 0;
    const uid = step.runAsUser ?? user;
    const gid = step.runAsGroup ?? uid;
    const { support, hostUser } = this.options;
    const limited = limitProcesses(argv, this.options.maxProcesses, support, this.pullsImages);
    return sandboxCommand({
      tools: support.tools,
      root,
      mounts: [...this.mounts(step), ...(limited.mount ? [limited.mount] : [])],
      cwd,
      uid,
      gid,
      ...(support.root ? { hostUser } : {}),
      ...(this.pod ? { netnsPid: this.pod.pid } : {}),
      hostname:
        this.run.name
          .toLowerCase()
          .replace(/[^a-z0-9-]/g, '-')
          .slice(0, 63) || 'task',
      argv: limited.argv,
    });
  }

  /** After a step: its exit code where later steps read it (`/tekton/steps/<step>/exitCode`). */
  async recordExit(step: ResolvedStep, index: number, exitCode: number | null): Promise<void> {
    await recordExitCode(join(this.scratchDir, 'steps'), step, index, exitCode);
  }

  /** Where this attempt's step directories are, on the host and inside (see step-values.ts). */
  get stepDirs(): StepDirs {
    return { host: join(this.scratchDir, 'steps'), inside: TEKTON.steps, credentials: TEKTON.credentials };
  }

  stop(): void {
    // the sidecars end (SIGTERM, then SIGKILL) with the task's last step; `stopped` tells when
    this.stopped = this.sidecars?.stop() ?? Promise.resolve();
    this.sidecars = undefined;
    this.pod?.stop();
    this.pod = undefined;
  }
}
