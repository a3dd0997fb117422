import { join, posix } from 'node:path';
import type { ResolvedStep, ResolvedTaskRun } from '../types.js';
import type { SandboxMount } from './sandbox-command.js';
import type { SandboxSupport } from './probe.js';

/** The volume kinds the local executor provides (Kubernetes' names). */
const PROVIDED = new Set(['emptyDir', 'secret', 'configMap']);

/**
 * Where a task attempt's emptyDir volumes live: `<scratch>/volume-<name>`, right under the
 * scratch directory (0711), which bwrap passes through as the sandbox's host user.
 */
export function emptyDirPath(scratchDir: string, volume: string): string {
  return join(scratchDir, `volume-${volume}`);
}

/** The emptyDir directories of an attempt (made with its scratch directories). */
export function emptyDirs(run: ResolvedTaskRun, scratchDir: string): string[] {
  return (run.volumes ?? [])
    .filter((v) => v.kind === 'emptyDir')
    .map((v) => emptyDirPath(scratchDir, v.name));
}

/**
 * Throws, naming it, for what a sandboxed task asks and the local executor cannot give: a
 * volume of another kind, a secret or config map volume whose files were not written, sidecars
 * without a task network to share with the steps.
 */
export function refuseUnprovidable(run: ResolvedTaskRun, hasNetwork: boolean): void {
  for (const volume of run.volumes ?? []) {
    if (!PROVIDED.has(volume.kind))
      throw new Error(
        `volume "${volume.name}" is ${/^[aeiou]/i.test(volume.kind) ? 'an' : 'a'} ${volume.kind}, which the local executor cannot provide`,
      );
    if (volume.kind !== 'emptyDir' && volume.hostPath === undefined)
      throw new Error(`volume "${volume.name}": the files of its ${volume.kind} were not written`);
  }
  if ((run.sidecars?.length ?? 0) > 0 && !hasNetwork)
    throw new Error(
      `sidecars need the task's own network namespace, which this task does not get (${
        run.noNetwork ? 'it asks for none: slipway.dev/network: none' : 'this host gives tasks no network'
      }); the local executor cannot run sidecar "${run.sidecars![0]!.name}"`,
    );
}

/** Unsandboxed (no sandbox): volumeMounts and sidecars cannot be honoured; throws naming the first. */
export function refuseUnsandboxed(run: ResolvedTaskRun): void {
  const sidecar = run.sidecars?.[0];
  if (sidecar)
    throw new Error(
      `sidecar "${sidecar.name}" needs the sandbox: unsandboxed local steps (SLIPWAY_LOCAL_EXECUTOR=unsandboxed) cannot run sidecars`,
    );
  for (const step of run.steps) {
    const mount = step.volumeMounts?.[0];
    if (mount)
      throw new Error(
        `step "${step.name}" mounts volume "${mount.name}" at ${mount.mountPath}: unsandboxed local steps (SLIPWAY_LOCAL_EXECUTOR=unsandboxed) cannot mount volumes`,
      );
  }
}

/** A step's volumeMounts as sandbox binds (secret and config map volumes always read-only). */
export function volumeMounts(run: ResolvedTaskRun, step: ResolvedStep, scratchDir: string): SandboxMount[] {
  return (step.volumeMounts ?? []).map((mount) => {
    const volume = run.volumes?.find((v) => v.name === mount.name);
    if (!volume) throw new Error(`step "${step.name}": no volume "${mount.name}" in the task`);
    const base = volume.kind === 'emptyDir' ? emptyDirPath(scratchDir, volume.name) : volume.hostPath!;
    const sub = mount.subPath ? posix.normalize(mount.subPath) : '';
    if (sub.startsWith('/') || sub === '..' || sub.startsWith('../'))
      throw new Error(
        `step "${step.name}": subPath "${mount.subPath}" of volume "${mount.name}" leaves the volume`,
      );
    if (!posix.isAbsolute(mount.mountPath))
      throw new Error(
        `step "${step.name}": mountPath "${mount.mountPath}" of volume "${mount.name}" is not absolute`,
      );
    return {
      hostPath: sub && sub !== '.' ? join(base, sub) : base,
      path: posix.normalize(mount.mountPath),
      readOnly: Boolean(mount.readOnly) || volume.kind !== 'emptyDir',
      base,
    };
  });
}

/** Where the limiter is bound in a step in its own image. */
const BUSYBOX_INSIDE = '/tekton/bin/busybox';

/**
 * A step's argv under its process limit (RLIMIT_NPROC), set inside the sandbox: since Linux 5.14
 * the count is kept per user namespace and checked up the chain against the limit each namespace's
 * creator had, so a limit set on bwrap itself would also cap the sum over every sandbox of the
 * host user (one step's fork bomb would stop the others). Set inside, it counts this sandbox's
 * processes only. Answers the argv and a mount the limiter needs, or the argv unchanged when this
 * host has no way to set it (the start-up summary says so).
 */
export function limitProcesses(
  argv: string[],
  max: number | undefined,
  support: Pick<SandboxSupport, 'limiter'>,
  ownImage: boolean,
): { argv: string[]; mount?: SandboxMount } {
  if (max === undefined) return { argv };
  const { prlimit, staticBusybox } = support.limiter;
  if (!ownImage && prlimit) return { argv: [prlimit, `--nproc=${max}`, '--', ...argv] };
  if (ownImage && staticBusybox)
    return {
      argv: [BUSYBOX_INSIDE, 'sh', '-c', `ulimit -u ${max} && exec "$@"`, 'sh', ...argv],
      mount: { hostPath: staticBusybox, path: BUSYBOX_INSIDE, readOnly: true },
    };
  return { argv };
}
