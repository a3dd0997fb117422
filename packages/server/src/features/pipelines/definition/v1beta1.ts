import type { DefinitionIssue } from './definition-issue.js';
import { TEKTON_API_VERSION } from './model.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const RESOURCES_MESSAGE =
  'PipelineResources (tekton.dev/v1beta1 `resources`) are not supported: use workspaces, params and results instead';

export interface Normalised {
  document: Json;
  errors: DefinitionIssue[];
  warnings: DefinitionIssue[];
}

function checkTaskSpec(spec: unknown, path: string, errors: DefinitionIssue[]) {
  if (!isObject(spec)) return;
  if (spec.resources !== undefined)
    errors.push({ path: `${path}.resources`, rule: 'v1beta1-resources', message: RESOURCES_MESSAGE });
  const steps = Array.isArray(spec.steps) ? spec.steps : [];
  steps.forEach((step) => {
    // v1beta1 steps named compute resources `resources`; v1 calls them computeResources.
    if (isObject(step) && step.resources !== undefined) {
      step.computeResources = step.resources;
      delete step.resources;
    }
  });
}

function checkPipelineSpec(spec: unknown, path: string, errors: DefinitionIssue[]) {
  if (!isObject(spec)) return;
  if (spec.resources !== undefined)
    errors.push({ path: `${path}.resources`, rule: 'v1beta1-resources', message: RESOURCES_MESSAGE });
  for (const list of ['tasks', 'finally'] as const) {
    const tasks = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
    tasks.forEach((task, i) => {
      if (!isObject(task)) return;
      const at = `${path}.${list}[${i}]`;
      if (task.resources !== undefined)
        errors.push({ path: `${at}.resources`, rule: 'v1beta1-resources', message: RESOURCES_MESSAGE });
      if (isObject(task.taskRef) && task.taskRef.bundle !== undefined)
        errors.push({
          path: `${at}.taskRef.bundle`,
          rule: 'unsupported',
          message: 'Tekton bundles are not supported: add the Task to the catalogue and reference it by name',
        });
      checkTaskSpec(task.taskSpec, `${at}.taskSpec`, errors);
    });
  }
}

function movePipelineRunFields(spec: Json, errors: DefinitionIssue[], warnings: DefinitionIssue[]) {
  if (spec.timeout !== undefined) {
    const timeouts = isObject(spec.timeouts) ? spec.timeouts : {};
    if (timeouts.pipeline !== undefined)
      errors.push({
        path: 'spec.timeout',
        rule: 'v1beta1-timeout',
        message: 'give either spec.timeout or spec.timeouts.pipeline, not both',
      });
    spec.timeouts = { ...timeouts, pipeline: spec.timeout };
    delete spec.timeout;
  }
  if (spec.serviceAccountName !== undefined || spec.podTemplate !== undefined) {
    const template = isObject(spec.taskRunTemplate) ? spec.taskRunTemplate : {};
    spec.taskRunTemplate = {
      ...template,
      ...(spec.serviceAccountName !== undefined ? { serviceAccountName: spec.serviceAccountName } : {}),
      ...(spec.podTemplate !== undefined ? { podTemplate: spec.podTemplate } : {}),
    };
    delete spec.serviceAccountName;
    delete spec.podTemplate;
  }
  // a taskRunSpec's taskServiceAccountName and taskPodTemplate (pipelinerun_conversion.go)
  if (Array.isArray(spec.taskRunSpecs))
    spec.taskRunSpecs = spec.taskRunSpecs.map((entry: unknown) => {
      if (!isObject(entry)) return entry;
      const { taskServiceAccountName, taskPodTemplate, ...rest } = entry;
      return {
        ...rest,
        ...(taskServiceAccountName !== undefined ? { serviceAccountName: taskServiceAccountName } : {}),
        ...(taskPodTemplate !== undefined ? { podTemplate: taskPodTemplate } : {}),
      };
    });
  if (spec.serviceAccountNames !== undefined)
    warnings.push({
      path: 'spec.serviceAccountNames',
      rule: 'v1beta1-ignored',
      message: 'per-task service accounts (serviceAccountNames) are ignored',
    });
}

/**
 * Reads a `tekton.dev/v1beta1` document as `tekton.dev/v1`: PipelineRun `timeout`,
 * `serviceAccountName` and `podTemplate` move to their v1 places, step `resources` become
 * `computeResources`; PipelineResources and bundles are refused with a clear error.
 */
export function normaliseV1beta1(kind: string, input: Json): Normalised {
  const document = structuredClone(input);
  const errors: DefinitionIssue[] = [];
  const warnings: DefinitionIssue[] = [
    {
      path: 'apiVersion',
      rule: 'v1beta1-normalised',
      message: `tekton.dev/v1beta1 ${kind} read as ${TEKTON_API_VERSION}`,
    },
  ];
  document.apiVersion = TEKTON_API_VERSION;
  const spec = isObject(document.spec) ? document.spec : undefined;
  if (!spec) return { document, errors, warnings };
  if (kind === 'Task') checkTaskSpec(spec, 'spec', errors);
  if (kind === 'Pipeline') checkPipelineSpec(spec, 'spec', errors);
  if (kind === 'PipelineRun') {
    if (spec.resources !== undefined)
      errors.push({ path: 'spec.resources', rule: 'v1beta1-resources', message: RESOURCES_MESSAGE });
    movePipelineRunFields(spec, errors, warnings);
    checkPipelineSpec(spec.pipelineSpec, 'spec.pipelineSpec', errors);
  }
  return { document, errors, warnings };
}
