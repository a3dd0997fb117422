import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';
import { parseDefinition } from './parse-document.js';
import { resolveTaskRun } from './resolve-task-run.js';
import { applyStepTemplate } from './step-template.js';

const TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: show
spec:
  params: [{ name: cm, default: app-config }]
  stepTemplate:
    envFrom:
      - configMapRef: { name: defaults }
  steps:
    - name: show
      image: alpine
      env:
        - name: GREETING
          valueFrom:
            configMapKeyRef: { name: $(params.cm), key: greeting }
        - name: MAYBE
          valueFrom:
            configMapKeyRef: { name: $(params.cm), key: nope, optional: true }
      envFrom:
        - configMapRef: { name: $(params.cm) }
          prefix: APP_
        - secretRef: { name: creds, optional: true }
      script: env
    - name: templated
      image: alpine
      script: env
`;

describe('config maps in step env', () => {
  it('accepts configMapKeyRef and envFrom in Task YAML, on steps and in the stepTemplate', () => {
    const checked = checkDefinition(TASK);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
  });

  it('resolves them into configMapEnv and envFrom, $(params) substituted', () => {
    const parsed = parseDefinition(TASK);
    if (!parsed.ok) throw new Error('parse');
    const task = parsed.tasks[0]!;
    const run = resolveTaskRun({ name: 'show', taskRef: { name: 'show' } }, task, {
      params: {},
      resultsDir: '/r',
    });
    expect(run.steps[0]).toMatchObject({
      env: {},
      secretEnv: [],
      configMapEnv: [
        { name: 'GREETING', configMap: 'app-config', key: 'greeting' },
        { name: 'MAYBE', configMap: 'app-config', key: 'nope', optional: true },
      ],
      envFrom: [
        { kind: 'configMap', name: 'app-config', prefix: 'APP_' },
        { kind: 'secret', name: 'creds', optional: true },
      ],
    });
    // a step without envFrom of its own gets the stepTemplate's
    expect(run.steps[1]?.envFrom).toEqual([{ kind: 'configMap', name: 'defaults' }]);
    expect(run.steps[1]?.configMapEnv).toBeUndefined();
  });

  it('lets a step envFrom replace the stepTemplate one, as Tekton does', () => {
    const step = applyStepTemplate(
      { name: 's', envFrom: [{ secretRef: { name: 'x' } }] },
      { envFrom: [{ configMapRef: { name: 'y' } }] },
    );
    expect(step.envFrom).toEqual([{ secretRef: { name: 'x' } }]);
  });

  it('refuses malformed ones at their line and column', () => {
    const bad = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: bad
spec:
  steps:
    - name: s
      image: alpine
      script: env
      env:
        - name: A
          valueFrom:
            configMapKeyRef: { name: app }
        - name: B
          valueFrom:
            configMapKeyRef: { name: app, key: k }
            secretKeyRef: { name: s, key: k }
      envFrom:
        - prefix: X_
        - configMapRef: { name: a }
          secretRef: { name: b }
        - configMapRef: { name: "" }
`;
    const parsed = parseDefinition(bad);
    expect(parsed.ok ? [] : parsed.errors.map((e) => [e.path, e.message, e.line, e.column])).toEqual([
      ['spec.steps[0].env[0].valueFrom.configMapKeyRef.key', 'key is required', 13, 30],
      [
        'spec.steps[0].env[1].valueFrom',
        'valueFrom needs exactly one of secretKeyRef, configMapKeyRef, fieldRef or resourceFieldRef',
        16,
        13,
      ],
      ['spec.steps[0].envFrom[0]', 'envFrom needs exactly one of configMapRef or secretRef', 19, 11],
      ['spec.steps[0].envFrom[1]', 'envFrom needs exactly one of configMapRef or secretRef', 20, 11],
      ['spec.steps[0].envFrom[2].configMapRef.name', 'name must not be empty', 22, 33],
    ]);
  });

  it('reads a PipelineRun binding a workspace to config map items', () => {
    const parsed = parseDefinition(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { generateName: r- }
spec:
  pipelineRef: { name: p }
  workspaces:
    - name: conf
      configMap:
        name: app-config
        items: [{ key: app.properties, path: conf/app.properties }]
`);
    expect(parsed.ok && parsed.pipelineRun?.spec.workspaces).toEqual([
      {
        name: 'conf',
        configMap: { name: 'app-config', items: [{ key: 'app.properties', path: 'conf/app.properties' }] },
      },
    ]);
  });
});
