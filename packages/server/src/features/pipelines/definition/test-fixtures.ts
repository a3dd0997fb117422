import { parseDefinition } from './parse-document.js';
import type { Pipeline, Task } from './model.js';

/** Realistic Tekton documents shared by the tests of this folder. */

export const GIT_CLONE_YAML = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: git-clone
spec:
  params:
    - name: url
      description: Repository URL to clone from.
    - name: revision
      default: main
  results:
    - name: commit
      description: The precise commit SHA that was fetched.
    - name: url
  workspaces:
    - name: output
  steps:
    - name: clone
      image: alpine/git:2.43.0
      env:
        - name: PARAM_URL
          value: $(params.url)
      script: |
        set -eu
        git clone "$PARAM_URL" "$(workspaces.output.path)"
        cd "$(workspaces.output.path)" && git checkout "$(params.revision)"
        printf '%s' "$(git rev-parse HEAD)" > "$(results.commit.path)"
        printf '%s' "$(params.url)" > "$(results.url.path)"
`;

export const BUILD_YAML = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: buildah
spec:
  params:
    - name: IMAGE
    - name: CONTEXT
      default: .
    - name: BUILD_EXTRA_ARGS
      type: array
      default: []
  results:
    - name: IMAGE_DIGEST
    - name: IMAGE_URL
  workspaces:
    - name: source
    - name: dockerconfig
      optional: true
  stepTemplate:
    env:
      - name: STORAGE_DRIVER
        value: vfs
  steps:
    - name: build
      image: quay.io/buildah/stable:v1.35
      workingDir: $(workspaces.source.path)
      command: [buildah]
      args: [bud, "$(params.BUILD_EXTRA_ARGS[*])", --tag, $(params.IMAGE), $(params.CONTEXT)]
    - name: push
      image: quay.io/buildah/stable:v1.35
      script: |
        buildah push --digestfile /tmp/digest "$(params.IMAGE)"
        cat /tmp/digest > "$(results.IMAGE_DIGEST.path)"
`;

export const TEST_YAML = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: npm-test
spec:
  params:
    - name: args
      type: array
      default: [test]
  workspaces:
    - name: source
  steps:
    - name: test
      image: node:22
      workingDir: $(workspaces.source.path)
      command: [npm]
      args: ["$(params.args[*])"]
`;

export const DEPLOY_YAML = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: kubectl-deploy
spec:
  params:
    - name: image
    - name: environment
      default: staging
  steps:
    - name: apply
      image: bitnami/kubectl:1.30
      timeout: 5m
      env:
        - name: KUBECONFIG_DATA
          valueFrom:
            secretKeyRef:
              name: kubeconfig-$(params.environment)
              key: config
      script: kubectl set image deployment/app app=$(params.image) --namespace $(params.environment)
`;

export const PIPELINE_YAML = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: build-and-deploy
spec:
  params:
    - name: repo-url
    - name: revision
      default: main
    - name: image
    - name: deploy
      default: "true"
  workspaces:
    - name: shared-data
    - name: docker-credentials
      optional: true
  results:
    - name: commit
      value: $(tasks.fetch-source.results.commit)
  tasks:
    - name: fetch-source
      taskRef:
        name: git-clone
      params:
        - name: url
          value: $(params.repo-url)
        - name: revision
          value: $(params.revision)
      workspaces:
        - name: output
          workspace: shared-data
    - name: build
      runAfter: [fetch-source]
      taskRef:
        name: buildah
      params:
        - name: IMAGE
          value: $(params.image):$(tasks.fetch-source.results.commit)
      workspaces:
        - name: source
          workspace: shared-data
        - name: dockerconfig
          workspace: docker-credentials
    - name: test
      runAfter: [fetch-source]
      taskRef:
        name: npm-test
      workspaces:
        - name: source
          workspace: shared-data
    - name: deploy
      runAfter: [test]
      when:
        - input: $(params.deploy)
          operator: in
          values: ["true"]
      taskRef:
        name: kubectl-deploy
      params:
        - name: image
          value: $(params.image)@$(tasks.build.results.IMAGE_DIGEST)
  finally:
    - name: notify
      params:
        - name: outcome
          value: $(tasks.status)
        - name: deploy-status
          value: $(tasks.deploy.status)
      taskSpec:
        params:
          - name: outcome
          - name: deploy-status
        steps:
          - name: report
            image: curlimages/curl:8.8.0
            script: echo "run $(context.pipelineRun.name) finished $(params.outcome), deploy $(params.deploy-status)"
`;

function parseOne<T>(yaml: string): T {
  const parsed = parseDefinition(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.documents[0] as T;
}

export const gitClone = () => parseOne<Task>(GIT_CLONE_YAML);
export const buildah = () => parseOne<Task>(BUILD_YAML);
export const npmTest = () => parseOne<Task>(TEST_YAML);
export const kubectlDeploy = () => parseOne<Task>(DEPLOY_YAML);
export const buildAndDeploy = () => parseOne<Pipeline>(PIPELINE_YAML);

export const catalogue = () => ({
  'git-clone': gitClone(),
  buildah: buildah(),
  'npm-test': npmTest(),
  'kubectl-deploy': kubectlDeploy(),
});

/** A minimal pipeline with inline script tasks, for graph and scheduling tests. */
export function inlinePipeline(
  tasks: { name: string; runAfter?: string[]; params?: [string, string][] }[],
): Pipeline {
  const spec = {
    steps: [{ name: 's', image: 'alpine', script: 'true' }],
    results: [{ name: 'out', type: 'string' as const }],
    params: [{ name: 'in', type: 'string' as const, default: '' }],
  };
  return {
    apiVersion: 'tekton.dev/v1' as const,
    kind: 'Pipeline' as const,
    metadata: { name: 'p' },
    spec: {
      tasks: tasks.map((t) => ({
        name: t.name,
        runAfter: t.runAfter,
        taskSpec: spec,
        params: t.params?.map(([name, value]) => ({ name, value })),
      })),
    },
  };
}
