import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ResolvedVolume } from '../pipelines/definition/resolve-task-run.js';
import type { RunDefinition } from './run-definition.js';
import type { ConfigMapSource, SecretSource } from './run-sources.js';
import { unsupportedBindingKind } from './workspace-bindings.js';

/** A workspace binding of a run request, as stored. */
export interface WorkspaceBinding {
  name: string;
  subPath?: string;
  /** A fresh directory, as an unbound workspace is. */
  emptyDir?: Record<string, unknown>;
  /** Tekton's secret workspace: every key of the secret is a file in the workspace. */
  secret?: { secretName: string };
  /** Tekton's configMap workspace: every key (or each item, at its path) is a file. */
  configMap?: { name: string; items?: { key: string; path: string }[] };
  /** Kinds only the Kubernetes executor may get; the local executor refuses them. */
  persistentVolumeClaim?: unknown;
  volumeClaimTemplate?: unknown;
  csi?: unknown;
  projected?: unknown;
}

export interface PreparedWorkspaces {
  /** pipeline workspace name → the directory steps see */
  paths: Record<string, string>;
  /** the secret values written as files (to mask in the logs) */
  secretValues: string[];
  /** workspaces steps must not write to: those bound to a secret or a config map */
  readOnlyWorkspaces: string[];
}

export interface PrepareOptions {
  /** config map data for configMap bindings; without it no config map is found */
  configMaps?: ConfigMapSource;
  /**
   * The run uses the local executor: a binding to a volume it cannot provide
   * (persistentVolumeClaim, volumeClaimTemplate, csi, projected) fails instead of becoming an
   * empty directory.
   */
  local?: boolean;
}

const FILE_NAME = /^[\w.-]+$/;

/**
 * Writes a secret's or a config map's keys as files in `dir` (each item at its path, or every
 * key under its own name), with `mode` exactly; `what` names the source in errors. Answers the
 * values written. Shared by workspaces and task volumes.
 */
export async function writeKeyFiles(
  dir: string,
  what: string,
  data: Record<string, string>,
  items: readonly { key: string; path: string }[] | undefined,
  mode: number,
): Promise<string[]> {
  const files: [string, string][] = items
    ? items.map((item) => {
        if (!Object.hasOwn(data, item.key)) throw new Error(`${what} has no key "${item.key}"`);
        return [item.path, data[item.key]!];
      })
    : Object.entries(data).map(([key, value]) => {
        if (!FILE_NAME.test(key) || key === '.' || key === '..')
          throw new Error(`${what} has a key that is not a file name: "${key}"`);
        return [key, value];
      });
  for (const [path, value] of files) {
    const file = join(dir, path);
    const inside = relative(dir, file);
    if (isAbsolute(path) || inside === '' || inside.startsWith(`..${sep}`) || inside === '..')
      throw new Error(`${what}: item path "${path}" leaves its directory`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, value, { mode });
    // writeFile's mode applies only to a new file, and through the umask: set it exactly
    await chmod(file, mode);
  }
  return files.map(([, value]) => value);
}

/** A task volume as the run directory writes it. */
export type TaskVolume = ResolvedVolume;

/**
 * A run's directory under the data directory: `workspaces/<name>` for each pipeline workspace
 * (a fresh directory unless bound), `workspaces/<name>/<key>` files for a workspace bound to a
 * secret (mode 0600) or a config map (mode 0644; or one file per item at its path),
 * `results/<task>` for task results. Removed when the run finishes; the logs are in the database.
 */
export class RunDirectory {
  readonly path: string;

  constructor(dataDir: string, runId: string) {
    this.path = join(dataDir, 'runs', runId);
  }

  resultsDir(task: string): string {
    return join(this.path, 'results', task);
  }

  /**
   * Creates every workspace's directory and writes the secret and config map workspaces' files.
   * Answers the paths steps see, the secret values written (to mask in the logs) and the
   * workspaces that are read-only to steps.
   */
  async prepare(
    definition: RunDefinition,
    bindings: readonly WorkspaceBinding[],
    workspaceId: string,
    secrets: SecretSource,
    options: PrepareOptions = {},
  ): Promise<PreparedWorkspaces> {
    if (options.local)
      for (const binding of bindings) {
        const kind = unsupportedBindingKind(binding);
        if (kind)
          throw new Error(
            `workspace "${binding.name}" is bound to a ${kind}, which the local executor cannot provide`,
          );
      }
    const names = new Set((definition.spec.workspaces ?? []).map((w) => w.name));
    for (const binding of bindings) names.add(binding.name);
    const byName = new Map(bindings.map((b) => [b.name, b]));
    const prepared: PreparedWorkspaces = { paths: {}, secretValues: [], readOnlyWorkspaces: [] };
    for (const name of names) {
      const dir = join(this.path, 'workspaces', name);
      prepared.paths[name] = dir;
      await mkdir(dir, { recursive: true });
      const binding = byName.get(name);
      if (binding?.secret?.secretName) {
        await this.writeSecret(name, dir, binding.secret.secretName, workspaceId, secrets, prepared);
        prepared.readOnlyWorkspaces.push(name);
      } else if (binding?.configMap?.name) {
        await this.writeConfigMap(name, dir, binding.configMap, workspaceId, options.configMaps);
        prepared.readOnlyWorkspaces.push(name);
      }
    }
    return prepared;
  }

  private async writeSecret(
    name: string,
    dir: string,
    secretName: string,
    workspaceId: string,
    secrets: SecretSource,
    prepared: PreparedWorkspaces,
  ) {
    const values = await secrets.values(workspaceId, secretName);
    if (!values) throw new Error(`workspace "${name}": secret "${secretName}" not found`);
    await chmod(dir, 0o700);
    const what = `workspace "${name}": secret "${secretName}"`;
    prepared.secretValues.push(...(await writeKeyFiles(dir, what, values, undefined, 0o600)));
  }

  private async writeConfigMap(
    name: string,
    dir: string,
    binding: NonNullable<WorkspaceBinding['configMap']>,
    workspaceId: string,
    configMaps: ConfigMapSource | undefined,
  ) {
    const what = `workspace "${name}": config map "${binding.name}"`;
    const data = configMaps ? await configMaps.data(workspaceId, binding.name) : null;
    if (!data) throw new Error(`${what} not found`);
    await writeKeyFiles(dir, what, data, binding.items, 0o644);
  }

  /**
   * Writes the files of a task run's secret and config map volumes under
   * `volumes/<task run>/<volume>` (secrets 0600 in a 0700 directory, config maps 0644; an
   * optional source that does not exist gives an empty directory). Answers the volumes with
   * their `hostPath` and the secret values written (to mask in the logs).
   */
  async writeVolumes<V extends TaskVolume>(
    taskRun: string,
    volumes: readonly V[],
    workspaceId: string,
    secrets: SecretSource,
    configMaps: ConfigMapSource | undefined,
  ): Promise<{ volumes: V[]; secretValues: string[] }> {
    const secretValues: string[] = [];
    const written: V[] = [];
    for (const volume of volumes) {
      if ((volume.kind !== 'secret' && volume.kind !== 'configMap') || volume.source === undefined) {
        written.push(volume);
        continue;
      }
      const dir = join(this.path, 'volumes', taskRun, volume.name);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o755 });
      const secret = volume.kind === 'secret';
      const what = `volume "${volume.name}": ${secret ? 'secret' : 'config map'} "${volume.source}"`;
      const data = secret
        ? await secrets.values(workspaceId, volume.source)
        : configMaps
          ? await configMaps.data(workspaceId, volume.source)
          : null;
      if (!data && !volume.optional) throw new Error(`${what} not found`);
      if (secret) await chmod(dir, 0o700);
      const values = data ? await writeKeyFiles(dir, what, data, volume.items, secret ? 0o600 : 0o644) : [];
      if (secret) secretValues.push(...values);
      written.push({ ...volume, hostPath: dir });
    }
    return { volumes: written, secretValues };
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
