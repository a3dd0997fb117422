import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
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
    for (const [key, value] of Object.entries(values)) {
      if (!FILE_NAME.test(key) || key === '.' || key === '..')
        throw new Error(
          `workspace "${name}": secret "${secretName}" has a key that is not a file name: "${key}"`,
        );
      await writeFile(join(dir, key), value, { mode: 0o600 });
      prepared.secretValues.push(value);
    }
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
    const files: [string, string][] = binding.items
      ? binding.items.map((item) => {
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
        throw new Error(`${what}: item path "${path}" leaves the workspace`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, value, { mode: 0o644 });
      // writeFile's mode applies only to a new file, and through the umask: set it exactly
      await chmod(file, 0o644);
    }
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
