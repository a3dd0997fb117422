/**
 * The secrets and config maps a PipelineRun reads, by name: in its tasks' steps, step templates
 * and sidecars (`env[].valueFrom`, `envFrom`), their volumes (`secret`, `configMap`, `projected`)
 * and the run's workspace bindings. Slipway's own (the workspace's secrets and config maps) are
 * copied into the namespace under per-run names, and the references renamed to them.
 */

export type ReferenceKind = 'secret' | 'configMap';

/** One reference: what it names, where (a path in the PipelineRun), and a way to rename it. */
export interface Reference {
  kind: ReferenceKind;
  name: string;
  path: string;
  optional: boolean;
  rename(to: string): void;
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function ref(out: Reference[], kind: ReferenceKind, holder: Obj | undefined, key: string, path: string) {
  if (!holder || typeof holder[key] !== 'string') return;
  out.push({
    kind,
    name: holder[key],
    path: `${path}.${key}`,
    optional: holder.optional === true,
    rename: (to) => {
      holder[key] = to;
    },
  });
}

function containerRefs(out: Reference[], container: Obj | undefined, path: string) {
  if (!container) return;
  list(container.env).forEach((e, i) => {
    const from = asObj(asObj(e)?.valueFrom);
    ref(out, 'secret', asObj(from?.secretKeyRef), 'name', `${path}.env[${i}].valueFrom.secretKeyRef`);
    ref(
      out,
      'configMap',
      asObj(from?.configMapKeyRef),
      'name',
      `${path}.env[${i}].valueFrom.configMapKeyRef`,
    );
  });
  list(container.envFrom).forEach((e, i) => {
    ref(out, 'secret', asObj(asObj(e)?.secretRef), 'name', `${path}.envFrom[${i}].secretRef`);
    ref(out, 'configMap', asObj(asObj(e)?.configMapRef), 'name', `${path}.envFrom[${i}].configMapRef`);
  });
}

/** `secret`, `configMap` and `projected` sources of a volume or a workspace binding. */
function volumeRefs(out: Reference[], volume: Obj | undefined, path: string) {
  if (!volume) return;
  ref(out, 'secret', asObj(volume.secret), 'secretName', `${path}.secret`);
  ref(out, 'configMap', asObj(volume.configMap), 'name', `${path}.configMap`);
  list(asObj(volume.projected)?.sources).forEach((s, i) => {
    ref(out, 'secret', asObj(asObj(s)?.secret), 'name', `${path}.projected.sources[${i}].secret`);
    ref(out, 'configMap', asObj(asObj(s)?.configMap), 'name', `${path}.projected.sources[${i}].configMap`);
  });
}

/** Every secret and config map reference of a PipelineRun object (spec.pipelineSpec inline). */
export function runReferences(pipelineRun: { spec: Obj }): Reference[] {
  const out: Reference[] = [];
  const spec = pipelineRun.spec;
  list(spec.workspaces).forEach((w, i) => volumeRefs(out, asObj(w), `spec.workspaces[${i}]`));
  const pipelineSpec = asObj(spec.pipelineSpec);
  for (const group of ['tasks', 'finally'] as const) {
    list(pipelineSpec?.[group]).forEach((t, i) => {
      const taskSpec = asObj(asObj(t)?.taskSpec);
      if (!taskSpec) return;
      const at = `spec.pipelineSpec.${group}[${i}].taskSpec`;
      list(taskSpec.steps).forEach((s, j) => containerRefs(out, asObj(s), `${at}.steps[${j}]`));
      containerRefs(out, asObj(taskSpec.stepTemplate), `${at}.stepTemplate`);
      list(taskSpec.sidecars).forEach((s, j) => containerRefs(out, asObj(s), `${at}.sidecars[${j}]`));
      list(taskSpec.volumes).forEach((v, j) => volumeRefs(out, asObj(v), `${at}.volumes[${j}]`));
    });
  }
  return out;
}

/** A name Tekton substitutes at run time (`$(params.secret)`): not known before the run. */
export const isComputed = (name: string): boolean => name.includes('$(');

/** The name of a run's copy of a secret or config map: `<pipeline run>-<name>`, at most 253 characters. */
export const copyName = (pipelineRun: string, name: string): string =>
  `${pipelineRun}-${name}`.slice(0, 253).replace(/[-.]+$/, '');
