import { describe, expect, it } from 'vitest';
import type { AgentGateway } from '../../agent-gateway/agent-gateway.js';
import { loadDefinition, type RunDefinition } from '../../pipeline-runs/run-definition.js';
import type { DriverDeps } from '../../pipeline-runs/run-driver.js';
import type { ClaimedRun } from '../../pipeline-runs/run-store.js';
import { tektonHandOff, type TektonTarget } from './tekton-hand-off.js';
import { TektonRunDriver } from './tekton-run-driver.js';

const pipeline = (image: string) => {
  const loaded = loadDefinition(
    `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  tasks:
    - name: t
      taskSpec:
        steps: [{ name: s, image: ${image} }]
`,
    new Map(),
  );
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.definition;
};

const run = (environmentId: string | null) =>
  ({
    id: 'r1',
    name: 'p-1',
    workspaceId: 'w',
    pipelineId: 'p',
    pipelineVersion: 1,
    environmentId,
  }) as ClaimedRun;
const deps = (definition: RunDefinition | Error) =>
  ({
    definitions: {
      load: async () => {
        if (definition instanceof Error) throw definition;
        return definition;
      },
    },
  }) as unknown as DriverDeps;
const gateway = {} as AgentGateway;
const tekton: TektonTarget = async () => ({ clusterId: 'c1', namespace: 'ci' });

describe('which runs are handed to Tekton', () => {
  it('hands off a run whose environment is a Tekton target', async () => {
    const driver = await tektonHandOff({ gateway, target: tekton })(run('e1'), deps(pipeline('alpine')));
    expect(driver).toBeInstanceOf(TektonRunDriver);
  });

  it('keeps runs without an environment, or whose environment is not a Tekton target', async () => {
    const handOff = tektonHandOff({
      gateway,
      target: async (id) => (id === 'e1' ? null : { clusterId: 'c', namespace: 'n' }),
    });
    expect(await handOff(run(null), deps(pipeline('alpine')))).toBeNull();
    expect(await handOff(run('e1'), deps(pipeline('alpine')))).toBeNull();
  });

  it('keeps pipelines with tasks Slipway carries out itself (deploy, apply-yaml): Tekton cannot run them', async () => {
    const handOff = tektonHandOff({ gateway, target: tekton });
    expect(await handOff(run('e1'), deps(pipeline('slipway.dev/in-server')))).toBeNull();
  });

  it("leaves a definition that does not load to the engine's driver, which reports it", async () => {
    const handOff = tektonHandOff({ gateway, target: tekton });
    expect(await handOff(run('e1'), deps(new Error('invalid definition')))).toBeNull();
  });
});
