import { stringify } from 'yaml';
import type { AppTemplate, K8sServiceTypeName } from '@slipway/contracts';
import type { SeedFile } from '../repositories/hosted-git.js';
import { GO_TEMPLATE } from './templates/go.js';
import { JAVA_TEMPLATE } from './templates/java.js';
import { NODE_TEMPLATE } from './templates/node.js';
import { PYTHON_TEMPLATE } from './templates/python.js';
import { STATIC_TEMPLATE } from './templates/static-site.js';
import { TEMPLATE_PORT, type TemplateSource } from './templates/template-source.js';

/** The app templates quick setup offers (`GET /admin/appaccelerator/types`). */
export const APP_TEMPLATES: readonly TemplateSource[] = [
  NODE_TEMPLATE,
  PYTHON_TEMPLATE,
  GO_TEMPLATE,
  JAVA_TEMPLATE,
  STATIC_TEMPLATE,
];

export const TEMPLATE_DEFAULTS = {
  port: TEMPLATE_PORT,
  serviceType: 'ClusterIP' as K8sServiceTypeName,
  namespace: 'apps',
};

/** Where the seeded repository keeps its manifests and its pipeline. */
export const MANIFESTS_PATH = 'k8s/app.yaml';
export const PIPELINE_PATH = '.tekton/pipeline.yaml';

/** The workspace secret the deploy step makes the cluster's pull secret from: pull-only credentials. */
export const PULL_SECRET = 'registry-pull';

/** The placeholder the pipeline fills with the image it built (its `image` param). */
export const IMAGE_PLACEHOLDER = '$(params.image)';

/** What an application made from a template is called and how it is served. */
export interface RenderOptions {
  name: string;
  port: number;
  serviceType: K8sServiceTypeName;
  namespace: string;
  /** the secret whose `token` key the clone authenticates with; absent: git-clone's default */
  gitSecret?: string;
  /** the Dockerfile's base image (its `BASE_IMAGE` build arg); absent: the template's own */
  baseImage?: string;
}

/** The base image a template's Dockerfile names by default (`ARG BASE_IMAGE=<image>`). */
export function baseImageOf(template: TemplateSource): string {
  const found = /^ARG BASE_IMAGE=(\S+)$/m.exec(template.files.Dockerfile ?? '');
  if (!found) throw new Error(`template ${template.id}: its Dockerfile has no ARG BASE_IMAGE=<image>`);
  return found[1]!;
}

export function findTemplate(id: string): TemplateSource | undefined {
  return APP_TEMPLATES.find((t) => t.id === id);
}

/** The template as the API lists it: every file it seeds, without their contents. */
export function describeTemplate(template: TemplateSource): AppTemplate {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    language: template.language,
    files: [...Object.keys(template.files), MANIFESTS_PATH, PIPELINE_PATH, 'README.md'].sort(),
    defaults: { ...TEMPLATE_DEFAULTS, baseImage: baseImageOf(template) },
  };
}

/** The Deployment and Service of an application, labelled `app.kubernetes.io/name: <name>`. */
export function manifestObjects(options: RenderOptions): [Record<string, unknown>, Record<string, unknown>] {
  const labels = { 'app.kubernetes.io/name': options.name };
  const metadata = { name: options.name, namespace: options.namespace, labels };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: options.name,
              image: IMAGE_PLACEHOLDER,
              ports: [{ name: 'http', containerPort: TEMPLATE_PORT }],
              env: [{ name: 'PORT', value: String(TEMPLATE_PORT) }],
              readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
              resources: {
                requests: { cpu: '50m', memory: '64Mi' },
                limits: { memory: '256Mi' },
              },
            },
          ],
        },
      },
    },
  };
  const headless = options.serviceType === 'Headless';
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      type: headless ? 'ClusterIP' : options.serviceType,
      ...(headless ? { clusterIP: 'None' } : {}),
      selector: labels,
      ports: [{ name: 'http', port: options.port, targetPort: 'http' }],
    },
  };
  return [deployment, service];
}

export function manifestsText(options: RenderOptions): string {
  return manifestObjects(options)
    .map((doc) => stringify(doc))
    .join('---\n');
}

/**
 * The application's Tekton v1 Pipeline: clone (git-clone) → test (the template's step) → build
 * and push (buildah, TLS not verified: Slipway's registry may be plain HTTP) → deploy (apply-yaml
 * with the manifests, the image filled in). Params: git-url, git-revision, image, base-image.
 */
export function pipelineObject(template: TemplateSource, options: RenderOptions) {
  const source = [{ name: 'source', workspace: 'source' }];
  return {
    apiVersion: 'tekton.dev/v1',
    kind: 'Pipeline',
    metadata: { name: options.name },
    spec: {
      description: `Clone, test, build and push, and deploy ${options.name} (${template.name})`,
      params: [
        { name: 'git-url', type: 'string', description: 'The repository to build' },
        { name: 'git-revision', type: 'string', description: 'The commit or branch', default: 'main' },
        { name: 'image', type: 'string', description: 'The image to build and deploy, with its tag' },
        {
          name: 'base-image',
          type: 'string',
          description: 'The image the Dockerfile builds on (its BASE_IMAGE build arg)',
          default: options.baseImage ?? baseImageOf(template),
        },
      ],
      workspaces: [{ name: 'source' }],
      tasks: [
        {
          name: 'clone',
          taskRef: { name: 'git-clone' },
          params: [
            { name: 'url', value: '$(params.git-url)' },
            { name: 'revision', value: '$(params.git-revision)' },
            ...(options.gitSecret ? [{ name: 'tokenSecret', value: options.gitSecret }] : []),
          ],
          workspaces: [{ name: 'output', workspace: 'source' }],
        },
        {
          name: 'test',
          runAfter: ['clone'],
          workspaces: source,
          taskSpec: {
            workspaces: [{ name: 'source' }],
            steps: [
              {
                name: 'test',
                image: template.test.image,
                workingDir: '$(workspaces.source.path)',
                script: `#!/bin/sh\nset -eu\n${template.test.script}\n`,
              },
            ],
          },
        },
        {
          name: 'build-and-push',
          runAfter: ['test'],
          taskRef: { name: 'buildah' },
          params: [
            { name: 'IMAGE', value: '$(params.image)' },
            { name: 'TLS_VERIFY', value: 'false' },
            { name: 'BUILD_ARGS', value: ['BASE_IMAGE=$(params.base-image)'] },
          ],
          workspaces: source,
        },
        {
          name: 'deploy',
          runAfter: ['build-and-push'],
          taskRef: { name: 'apply-yaml' },
          params: [
            { name: 'manifests', value: manifestsText(options) },
            { name: 'app', value: options.name },
            // the cluster pulls the image from Slipway's registry with pull-only credentials
            { name: 'pullSecret', value: PULL_SECRET },
          ],
        },
      ],
    },
  };
}

export function pipelineText(template: TemplateSource, options: RenderOptions): string {
  return stringify(pipelineObject(template, options));
}

/** Every file seeded into the application's repository: the template's, its manifests and pipeline. */
export function renderFiles(template: TemplateSource, options: RenderOptions): Record<string, SeedFile> {
  const files: Record<string, SeedFile> = {};
  for (const [file, content] of Object.entries(template.files))
    files[file] = { content, executable: file.endsWith('.sh') };
  files[MANIFESTS_PATH] = { content: manifestsText(options) };
  files[PIPELINE_PATH] = { content: pipelineText(template, options) };
  files['README.md'] = {
    content: `# ${options.name}

${template.description}. Made by Slipway's quick setup from the "${template.name}" template.

- The service listens on $PORT (${TEMPLATE_PORT}); the Dockerfile's base image is the build arg \`BASE_IMAGE\`.
- \`${MANIFESTS_PATH}\`: its Deployment and Service (port ${options.port}, ${options.serviceType}, namespace ${options.namespace}); the pipeline fills in \`${IMAGE_PLACEHOLDER}\`.
- \`${PIPELINE_PATH}\`: the pipeline a push to this repository starts: clone, test, build and push, deploy.
`,
  };
  return files;
}
