import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunDefinition } from './run-definition.js';
import type { SecretSource } from './run-sources.js';

/** A workspace binding of a run request, as stored. */
export interface WorkspaceBinding {
  name: string;
  subPath?: string;
  /** Tekton's secret workspace: every key of the secret is a file in the workspace. */
  secret?: { secretName: string };
}

/**
 * A run's directory under the data directory: `workspaces/<name>` for each pipeline workspace
 * (a fresh directory unless bound), `workspaces/<name>/<key>` files for a workspace bound to a
 * secret (mode 0600), `results/<task>` for task results. Removed when the run finishes; the logs
 * are in the database.
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
   * Creates every workspace's directory and writes the secret workspaces' files. Answers the
   * paths steps see and the secret values written (to mask in the logs).
   */
  async prepare(
    definition: RunDefinition,
    bindings: readonly WorkspaceBinding[],
    workspaceId: string,
    secrets: SecretSource,
  ): Promise<{ paths: Record<string, string>; secretValues: string[] }> {
    const names = new Set((definition.spec.workspaces ?? []).map((w) => w.name));
    for (const binding of bindings) names.add(binding.name);
    const byName = new Map(bindings.map((b) => [b.name, b]));
    const paths: Record<string, string> = {};
    const secretValues: string[] = [];
    for (const name of names) {
      const dir = join(this.path, 'workspaces', name);
      paths[name] = dir;
      await mkdir(dir, { recursive: true });
      const secretName = byName.get(name)?.secret?.secretName;
      if (!secretName) continue;
      const values = await secrets.values(workspaceId, secretName);
      if (!values) throw new Error(`workspace "${name}": secret "${secretName}" not found`);
      await chmod(dir, 0o700);
      for (const [key, value] of Object.entries(values)) {
        if (!/^[\w.-]+$/.test(key) || key === '.' || key === '..')
          throw new Error(
            `workspace "${name}": secret "${secretName}" has a key that is not a file name: "${key}"`,
          );
        await writeFile(join(dir, key), value, { mode: 0o600 });
        secretValues.push(value);
      }
    }
    return { paths, secretValues };
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }
}
