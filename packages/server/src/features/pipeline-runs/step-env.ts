import type { ResolvedStep, ResolvedTaskRun } from '../pipelines/definition/index.js';

/** Where a task run's config map and secret env come from, for one workspace. */
export interface StepEnvSources {
  configMap(name: string): Promise<Record<string, string> | null>;
  /** every key of a secret (its values are read again by the executor, which masks them) */
  secret(name: string): Promise<Record<string, string> | null>;
}

/** Does any step read config maps or use envFrom (and so need folding)? */
export function needsStepEnv(run: ResolvedTaskRun): boolean {
  return [...run.steps, ...(run.sidecars ?? [])].some(
    (s) => (s.configMapEnv?.length ?? 0) > 0 || (s.envFrom?.length ?? 0) > 0,
  );
}

/**
 * Folds the steps' config map env into plain `env`, and their `envFrom` into `env` (config
 * maps) and `secretEnv` (secrets, one entry per key, so the executor reads and masks them as it
 * does every secretKeyRef). As in Kubernetes: `envFrom` sources apply in order (a later key wins)
 * and a variable of `env` wins over them. A missing config map, key or secret that is not
 * optional throws, naming the step, the variable and where it was to come from.
 */
export async function foldStepEnv(run: ResolvedTaskRun, sources: StepEnvSources): Promise<ResolvedTaskRun> {
  if (!needsStepEnv(run)) return run;
  const configMaps = new Map<string, Promise<Record<string, string> | null>>();
  const secrets = new Map<string, Promise<Record<string, string> | null>>();
  const configMap = (name: string) => {
    if (!configMaps.has(name)) configMaps.set(name, sources.configMap(name));
    return configMaps.get(name)!;
  };
  const secret = (name: string) => {
    if (!secrets.has(name)) secrets.set(name, sources.secret(name));
    return secrets.get(name)!;
  };
  const steps: ResolvedStep[] = [];
  for (const step of run.steps) steps.push(await foldStep(step, configMap, secret));
  if (!run.sidecars) return { ...run, steps };
  const sidecars = [];
  for (const sidecar of run.sidecars) sidecars.push(await foldStep(sidecar, configMap, secret));
  return { ...run, steps, sidecars };
}

async function foldStep<S extends ResolvedStep>(
  step: S,
  configMap: StepEnvSources['configMap'],
  secret: StepEnvSources['secret'],
): Promise<S> {
  const { configMapEnv = [], envFrom = [], ...rest } = step;
  const label = `step "${step.name}"`;
  const plain: Record<string, string> = {};
  const sealed = new Map<string, ResolvedStep['secretEnv'][number]>();
  for (const from of envFrom) {
    const prefix = from.prefix ?? '';
    if (from.kind === 'configMap') {
      const data = await configMap(from.name);
      if (!data) {
        if (from.optional) continue;
        throw new Error(`${label}: config map "${from.name}" (envFrom) not found`);
      }
      for (const [key, value] of Object.entries(data)) {
        plain[prefix + key] = value;
        sealed.delete(prefix + key);
      }
    } else {
      const values = await secret(from.name);
      if (!values) {
        if (from.optional) continue;
        throw new Error(`${label}: secret "${from.name}" (envFrom) not found`);
      }
      for (const key of Object.keys(values)) {
        const name = prefix + key;
        delete plain[name];
        sealed.set(name, { name, secret: from.name, key, ...(from.optional ? { optional: true } : {}) });
      }
    }
  }
  const fromConfigMaps: Record<string, string> = {};
  for (const ref of configMapEnv) {
    const data = await configMap(ref.configMap);
    const found = data !== null && Object.hasOwn(data, ref.key);
    if (!found) {
      // Kubernetes: an optional configMapKeyRef whose config map or key is missing leaves it unset
      if (ref.optional) continue;
      const why = data
        ? `config map "${ref.configMap}" has no key "${ref.key}"`
        : `config map "${ref.configMap}" not found`;
      throw new Error(
        `${label}: config map "${ref.configMap}" (key "${ref.key}") for ${ref.name} could not be read: ${why}`,
      );
    }
    fromConfigMaps[ref.name] = data[ref.key]!;
  }
  const explicit = new Set([
    ...Object.keys(step.env),
    ...Object.keys(fromConfigMaps),
    ...step.secretEnv.map((s) => s.name),
  ]);
  for (const name of explicit) {
    delete plain[name];
    sealed.delete(name);
  }
  // a sidecar keeps what is its own (its readiness probe)
  return {
    ...rest,
    env: { ...plain, ...step.env, ...fromConfigMaps },
    secretEnv: [...sealed.values(), ...step.secretEnv],
  } as unknown as S;
}
