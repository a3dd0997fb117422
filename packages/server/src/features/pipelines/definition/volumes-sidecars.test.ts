import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';
import type { Task } from './model.js';
import { resolveTaskRun } from './resolve-task-run.js';

const TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: with-volumes
spec:
  params:
    - name: port
      default: "8080"
  volumes:
    - name: scratch
      emptyDir: {}
    - name: creds
      secret:
        secretName: deploy-key
        items:
          - key: id_rsa
            path: key
    - name: settings
      configMap:
        name: app-settings
    - name: cache
      hostPath:
        path: /var/cache
  stepTemplate:
    volumeMounts:
      - name: scratch
        mountPath: /scratch
  sidecars:
    - name: server
      image: python:3
      script: python3 -m http.server $(params.port)
      readinessProbe:
        tcpSocket:
          port: $(params.port)
  steps:
    - name: use
      image: alpine:3
      script: ls /scratch /creds
      volumeMounts:
        - name: creds
          mountPath: /creds
          readOnly: true
`;

describe('task volumes, volumeMounts and sidecars', () => {
  it('parses, validates and resolves them', () => {
    const checked = checkDefinition(TASK);
    expect(checked.ok, JSON.stringify(!checked.ok && checked.errors)).toBe(true);
    const task = (checked.ok ? checked.tasks[0] : undefined) as Task;
    const run = resolveTaskRun({ name: 'use-volumes', taskRef: { name: 'with-volumes' } }, task, {
      params: {},
      resultsDir: '/r',
      containerPaths: true,
    });
    expect(run.volumes).toEqual([
      { name: 'scratch', kind: 'emptyDir' },
      { name: 'creds', kind: 'secret', source: 'deploy-key', items: [{ key: 'id_rsa', path: 'key' }] },
      { name: 'settings', kind: 'configMap', source: 'app-settings' },
      { name: 'cache', kind: 'hostPath' },
    ]);
    expect(run.steps[0]?.volumeMounts).toEqual([
      { name: 'scratch', mountPath: '/scratch' },
      { name: 'creds', mountPath: '/creds', readOnly: true },
    ]);
    expect(run.sidecars).toMatchObject([
      {
        name: 'server',
        image: 'python:3',
        script: 'python3 -m http.server 8080',
        readiness: { tcpPort: 8080 },
      },
    ]);
  });

  it('refuses a volumeMount naming no volume of the task, with its line and column', () => {
    const text = TASK.replace(
      '        - name: creds\n          mountPath: /creds',
      '        - name: credz\n          mountPath: /creds',
    );
    const checked = checkDefinition(text);
    expect(checked.ok).toBe(false);
    const [issue] = checked.ok ? [] : checked.errors;
    expect(issue).toMatchObject({ path: 'spec.steps[0].volumeMounts[0].name', line: 40, column: 17 });
    expect(issue?.message).toContain('volume "credz"');
  });
});

describe('an unnamed sidecar', () => {
  it('is accepted and named unnamed-<i>, as Tekton takes a sidecar without a name (taskruns/beta/workspace-in-sidecar.yaml)', () => {
    const checked = checkDefinition(`apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: with-sidecar
spec:
  steps:
    - image: alpine
      script: echo step
  sidecars:
    - image: alpine
      script: echo sidecar
    - name: db
      image: alpine
      script: echo db
`);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    if (!checked.ok) return;
    expect(checked.tasks[0]!.spec.sidecars?.map((s) => s.name)).toEqual(['unnamed-0', 'db']);
  });
});
