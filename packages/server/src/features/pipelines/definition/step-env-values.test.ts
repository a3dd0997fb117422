import { availableParallelism, hostname, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SubstitutionError } from './definition-issue.js';
import { checkDefinition } from './check-definition.js';
import { resolveTaskRun } from './resolve-task-run.js';
import { parseQuantity } from './step-env-values.js';

/** Kubernetes' downward API env (docs: "Expose Pod Information to Containers Through Environment Variables"). */
const TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: info
  labels: { app: web }
  annotations: { owner: team-a }
spec:
  stepTemplate:
    computeResources:
      limits: { memory: 1Gi }
  steps:
    - name: show
      image: alpine
      computeResources:
        requests: { cpu: 250m, memory: 64Mi }
        limits: { cpu: "2" }
      env:
        - name: MY_POD_NAME
          valueFrom: { fieldRef: { fieldPath: metadata.name } }
        - name: MY_POD_NAMESPACE
          valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
        - name: MY_POD_UID
          valueFrom: { fieldRef: { fieldPath: metadata.uid } }
        - name: MY_NODE_NAME
          valueFrom: { fieldRef: { fieldPath: spec.nodeName } }
        - name: MY_POD_SERVICE_ACCOUNT
          valueFrom: { fieldRef: { fieldPath: spec.serviceAccountName } }
        - name: APP
          valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } }
        - name: TASK_RUN
          valueFrom: { fieldRef: { fieldPath: "metadata.labels['tekton.dev/taskRun']" } }
        - name: OWNER
          valueFrom: { fieldRef: { fieldPath: "metadata.annotations['owner']" } }
        - name: MY_CPU_REQUEST
          valueFrom: { resourceFieldRef: { resource: requests.cpu, divisor: 1m } }
        - name: MY_CPU_LIMIT
          valueFrom: { resourceFieldRef: { resource: limits.cpu } }
        - name: MY_MEM_REQUEST
          valueFrom: { resourceFieldRef: { resource: requests.memory, divisor: 1Mi } }
        - name: MY_MEM_LIMIT
          valueFrom: { resourceFieldRef: { resource: limits.memory, divisor: 1Mi } }
      script: env
    - name: unlimited
      image: alpine
      env:
        - name: CPUS
          valueFrom: { resourceFieldRef: { resource: limits.cpu } }
        - name: MEMORY
          valueFrom: { resourceFieldRef: { resource: limits.memory } }
        - name: CPU_REQUEST
          valueFrom: { resourceFieldRef: { resource: requests.cpu } }
      script: env
`;

function task(text: string) {
  const result = checkDefinition(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.tasks[0]!;
}

const resolve = (text: string) =>
  resolveTaskRun({ name: 'show-info', taskRef: { name: 'info' } }, task(text), {
    resultsDir: '/r',
    context: {
      pipelineRun: { name: 'run-7', uid: 'u-7', namespace: 'default' },
      pipeline: { name: 'deploy' },
      taskRun: { name: 'run-7-show-info', uid: 'tr-uid-7' },
    },
  });

describe('env valueFrom fieldRef and resourceFieldRef', () => {
  it("gives the pod fields Tekton's pod would have, and the step's resources with their divisor", () => {
    const run = resolve(TASK);
    expect(run.steps[0]!.env).toEqual({
      MY_POD_NAME: 'run-7-show-info-pod',
      MY_POD_NAMESPACE: 'default',
      MY_POD_UID: 'tr-uid-7',
      MY_NODE_NAME: hostname(),
      MY_POD_SERVICE_ACCOUNT: 'default',
      APP: 'web',
      TASK_RUN: 'run-7-show-info',
      OWNER: 'team-a',
      MY_CPU_REQUEST: '250',
      MY_CPU_LIMIT: '2',
      MY_MEM_REQUEST: '64',
      MY_MEM_LIMIT: '1024',
    });
    // a limit left unset is the host's (a node's allocatable); a request left unset is the limit, or 0
    expect(resolve(TASK.replace(/stepTemplate:[\s\S]*?memory: 1Gi }\n/, '')).steps[1]!.env.MEMORY).toBe(
      String(totalmem()),
    );
    expect(run.steps[1]!.env).toEqual({
      CPUS: String(availableParallelism()),
      MEMORY: String(1024 ** 3), // the stepTemplate's
      CPU_REQUEST: '0',
    });
  });

  it('refuses at submission what it cannot give, naming the field', () => {
    const env = (from: string) =>
      TASK.replace(
        /env:\n {8}- name: MY_POD_NAME[\s\S]*?script: env/,
        `env:\n        - name: X\n          valueFrom: ${from}\n      script: env`,
      );
    const messages = (from: string) => {
      const result = checkDefinition(env(from));
      return result.ok ? [] : result.errors.map((e) => [e.path, e.rule, e.message]);
    };
    expect(messages('{ fieldRef: { fieldPath: status.podIP } }')).toEqual([
      [
        'spec.steps[0].env[0].valueFrom',
        'unsupported',
        'env "X": fieldRef status.podIP cannot be given: a Slipway step runs in a sandbox of its own, not in a pod with an address on a cluster network',
      ],
    ]);
    expect(messages('{ fieldRef: { fieldPath: metadata.labels } }')[0]?.[2]).toContain('needs a key');
    expect(messages('{ resourceFieldRef: { resource: limits.nvidia.com/gpu } }')[0]?.[2]).toContain(
      'is not one Slipway gives',
    );
    expect(messages('{ resourceFieldRef: { resource: limits.cpu, divisor: 1Mi } }')[0]?.[2]).toContain(
      'divisor "1Mi" is not one of 1, 1m',
    );
    expect(
      messages('{ resourceFieldRef: { resource: limits.cpu, containerName: step-other } }')[0]?.[2],
    ).toBe(
      'env "X": resourceFieldRef containerName "step-other": a step can read only its own resources (step-show)',
    );
    expect(messages('{ resourceFieldRef: { resource: limits.cpu, containerName: step-show } }')).toEqual([]);
    expect(messages('{ configMapKeyRef: { name: c, key: k } }')).toEqual([]);
  });

  it('fails the task run, naming the step and variable, for a quantity that is not one', () => {
    expect(() => resolve(TASK.replace('limits: { cpu: "2" }', 'limits: { cpu: lots }'))).toThrow(
      SubstitutionError,
    );
    expect(() => resolve(TASK.replace('limits: { cpu: "2" }', 'limits: { cpu: lots }'))).toThrow(
      'step "show": env MY_CPU_LIMIT: computeResources.limits.cpu "lots" is not a quantity',
    );
  });

  it("parses Kubernetes' quantities exactly", () => {
    expect(parseQuantity('500m')).toEqual({ n: 500n, d: 1000n });
    expect(parseQuantity('1.5Gi')).toEqual({ n: 15n * 2n ** 30n, d: 10n });
    expect(parseQuantity('1e3')).toEqual({ n: 1000n, d: 1n });
    expect(parseQuantity('12Mb')).toBeNull();
  });
});
