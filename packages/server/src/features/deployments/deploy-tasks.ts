/**
 * The apply-yaml and deploy task templates. Their one step is carried out by Slipway itself
 * (the image is a marker, never pulled): the manifests are applied with server-side apply through
 * the agent of the cluster that the run's environment is bound to, the deployment is recorded and
 * its health followed. See deploy-executor.ts.
 */
export const NATIVE_STEP_IMAGE = 'slipway.dev/in-server';

/** The params both tasks end with: the application's name and whether to wait for its health. */
const APP_AND_WAIT_PARAMS = `    - name: app
      type: string
      description: The application's name; by default the first workload's name.
      default: ""
    - name: wait
      type: string
      description: Wait until the application is healthy ("true") or only apply ("false").
      default: "true"
    - name: pullSecret
      type: string
      description: >-
        A workspace secret whose .dockerconfigjson key holds registry credentials: applied to the
        workloads' namespaces as the Secret slipway-pull-<name> and named in their
        imagePullSecrets. Empty: none.
      default: ""
`;

/** The result both tasks end with: what was applied. */
const APPLIED_RESULT = `    - name: applied
      description: The objects applied, one kind/namespace/name per line.
`;

/** The env that hands the step the app and wait params. */
const APP_AND_WAIT_ENV = `        - name: APP
          value: $(params.app)
        - name: WAIT
          value: $(params.wait)
        - name: PULL_SECRET
          value: $(params.pullSecret)
`;

export const APPLY_YAML_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: apply-yaml
spec:
  description: >-
    Applies Kubernetes manifests to the run's environment (server-side apply, field manager
    slipway, through the cluster's agent) and records the deployment and its health.
  params:
    - name: manifests
      type: string
      description: One or more YAML documents.
${APP_AND_WAIT_PARAMS}  results:
    - name: health
      description: The application's health after applying.
${APPLIED_RESULT}  steps:
    - name: apply
      image: ${NATIVE_STEP_IMAGE}
      command: [apply]
      env:
        - name: MANIFESTS
          value: $(params.manifests)
${APP_AND_WAIT_ENV}`;

export const DEPLOY_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: deploy
spec:
  description: >-
    Rolls out an image: sets the tag on every container that runs the image in the manifests,
    applies them to the run's environment through the cluster's agent, and waits until healthy.
  params:
    - name: manifests
      type: string
      description: One or more YAML documents naming the image (any tag).
    - name: image
      type: string
      description: The image repository, e.g. registry.example.com/team/shop.
    - name: tag
      type: string
      description: The tag (or @sha256 digest) to roll out.
${APP_AND_WAIT_PARAMS}  results:
    - name: health
      description: The application's health after the rollout.
${APPLIED_RESULT}  steps:
    - name: deploy
      image: ${NATIVE_STEP_IMAGE}
      command: [deploy]
      env:
        - name: MANIFESTS
          value: $(params.manifests)
        - name: IMAGE
          value: $(params.image)
        - name: TAG
          value: $(params.tag)
${APP_AND_WAIT_ENV}`;
