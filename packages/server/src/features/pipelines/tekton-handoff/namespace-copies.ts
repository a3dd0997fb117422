import type { KubernetesObject } from '@slipway/contracts';
import type { AgentGateway } from '../../agent-gateway/agent-gateway.js';
import { configMapsOf, type SecretSource } from '../../pipeline-runs/run-sources.js';
import type { SecretMasker } from '../executor/secret-masker.js';
import { RUN_ID_LABEL, HandOffError, type PipelineRunPlan } from './pipeline-run-object.js';
import { copyName, isComputed, type Reference } from './run-references.js';

export interface CopySources {
  gateway: AgentGateway;
  clusterId: string;
  workspaceId: string;
  secrets: SecretSource;
  /** the copied secrets' values are masked in the run's logs */
  masker: SecretMasker;
}

const label = (kind: Reference['kind']) => (kind === 'secret' ? 'secret' : 'config map');

/**
 * The secrets and config maps a handed-off run reads (decision 037). One the workspace holds in
 * Slipway is copied into the namespace under a per-run name (`<pipeline run>-<name>`), and the
 * references are renamed to it; one it does not hold must be in the namespace already (unless the
 * reference is optional). A name only known at run time (`$(params.…)`) is refused: the copies
 * are made before the run starts.
 */
export async function namespaceCopies(plan: PipelineRunPlan, from: CopySources): Promise<KubernetesObject[]> {
  const byName = new Map<string, Reference[]>();
  for (const ref of plan.references) {
    if (isComputed(ref.name))
      throw new HandOffError(
        `${ref.path}: the ${label(ref.kind)} name "${ref.name}" is only known at run time; a run handed to Tekton names the secrets and config maps it reads`,
      );
    const key = `${ref.kind}/${ref.name}`;
    byName.set(key, [...(byName.get(key) ?? []), ref]);
  }
  const copies: KubernetesObject[] = [];
  const configMaps = configMapsOf({ secrets: from.secrets });
  for (const refs of byName.values()) {
    const { kind, name } = refs[0]!;
    const values =
      kind === 'secret'
        ? await from.secrets.values(from.workspaceId, name)
        : await configMaps.data(from.workspaceId, name);
    if (values) {
      const copy = copyName(plan.name, name);
      for (const ref of refs) ref.rename(copy);
      const metadata = {
        name: copy,
        namespace: plan.namespace,
        labels: {
          [RUN_ID_LABEL]: plan.object.metadata.labels[RUN_ID_LABEL]!,
          'app.kubernetes.io/managed-by': 'slipway',
        },
      };
      if (kind === 'secret') {
        for (const value of Object.values(values)) from.masker.add(value);
        const data = Object.fromEntries(
          Object.entries(values).map(([k, v]) => [k, Buffer.from(v, 'utf8').toString('base64')]),
        );
        copies.push({ apiVersion: 'v1', kind: 'Secret', metadata, type: 'Opaque', data });
      } else copies.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: values });
      continue;
    }
    if (refs.every((r) => r.optional)) continue;
    await inNamespace(from, plan.namespace, kind, name, refs[0]!.path);
  }
  return copies;
}

async function inNamespace(
  from: CopySources,
  namespace: string,
  kind: Reference['kind'],
  name: string,
  path: string,
) {
  try {
    await from.gateway.request(from.clusterId, {
      kind: 'get',
      args: { apiVersion: 'v1', kind: kind === 'secret' ? 'Secret' : 'ConfigMap', name, namespace },
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'not_found') throw error;
    throw new HandOffError(
      `${path}: ${label(kind)} "${name}" is neither one of the workspace's ${label(kind)}s nor in namespace ${namespace}`,
    );
  }
}
