import { substitute, type DefinitionIssue, type ParamValue } from '../pipelines/definition/index.js';
import { serverPodTemplateRefusal } from '../pipelines/executor/pod-template.js';
import type { RunDocumentRecord } from './run-document-types.js';

/*
 * The pod template a run document gives its task runs (Tekton: `taskRunSpecs[].podTemplate` merged
 * over `taskRunTemplate.podTemplate`, as pod.MergePodTemplateWithDefault does; a TaskRun's
 * `spec.podTemplate`). Like a service account (run-service-accounts.ts) it means something only
 * where the environment's cluster runs the tasks: Tekton there (the hand-off sends it on) or
 * Slipway's pods (kubernetes-executor-pod.ts applies it). Slipway's own executor runs a task in
 * its sandbox on the server, not in a pod, so a run there is refused: when it is created if its
 * target is known then, else when the task starts.
 */

type Json = Record<string, unknown>;
export type PodTemplate = Json;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Tekton's pod.Template fields (docs/podtemplates.md), by the JSON type each takes. */
const FIELDS: Record<string, 'map' | 'list' | 'object' | 'string' | 'boolean'> = {
  nodeSelector: 'map',
  env: 'list',
  tolerations: 'list',
  affinity: 'object',
  securityContext: 'object',
  volumes: 'list',
  runtimeClassName: 'string',
  automountServiceAccountToken: 'boolean',
  dnsPolicy: 'string',
  dnsConfig: 'object',
  enableServiceLinks: 'boolean',
  priorityClassName: 'string',
  schedulerName: 'string',
  imagePullSecrets: 'list',
  hostAliases: 'list',
  hostNetwork: 'boolean',
  hostUsers: 'boolean',
  topologySpreadConstraints: 'list',
};
export const POD_TEMPLATE_FIELDS = Object.keys(FIELDS);

/** The DNS policies Tekton takes (ClusterFirstWithHostNet is not: its pods do not run with host networking). */
const DNS_POLICIES = ['ClusterFirst', 'Default', 'None'];

const typeOk = (kind: (typeof FIELDS)[string], value: unknown): boolean =>
  kind === 'map'
    ? isObject(value) && Object.values(value).every((v) => typeof v === 'string')
    : kind === 'list'
      ? Array.isArray(value) && value.every(isObject)
      : kind === 'object'
        ? isObject(value)
        : typeof value === kind;

const TYPE_TEXT = {
  map: 'a map of strings',
  list: 'a list of objects',
  object: 'an object',
  string: 'a string',
  boolean: 'true or false',
};

/**
 * A pod template's issues: unknown fields, wrong types, env entries other than a name and a value,
 * and volumes (which only a Task's volumeMounts use, and those must name the Task's own volumes).
 */
export function podTemplateIssues(value: unknown, path: string): DefinitionIssue[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) return [{ path, rule: 'schema', message: `${path} must be an object` }];
  const issues: DefinitionIssue[] = [];
  for (const [key, field] of Object.entries(value)) {
    const at = `${path}.${key}`;
    const kind = FIELDS[key];
    if (!kind) {
      issues.push({
        path: at,
        rule: 'unknown-field',
        message: `${key} is not a field of a pod template (Tekton's are ${POD_TEMPLATE_FIELDS.join(', ')})`,
      });
      continue;
    }
    if (field === null || field === undefined) continue;
    if (!typeOk(kind, field)) {
      issues.push({ path: at, rule: 'schema', message: `${key} must be ${TYPE_TEXT[kind]}` });
      continue;
    }
    if (key === 'dnsPolicy' && !DNS_POLICIES.includes(field as string))
      issues.push({
        path: at,
        rule: 'dns-policy',
        message: `dnsPolicy must be one of ${DNS_POLICIES.join(', ')} (Tekton's pods do not run with ClusterFirstWithHostNet)`,
      });
    if (key === 'volumes' && (field as Json[]).length > 0)
      issues.push({
        path: at,
        rule: 'unsupported',
        message: `${at} is not supported: in Tekton a pod template's volumes serve the Task's volumeMounts, and Slipway checks each Task's volumeMounts against its own spec.volumes; declare the volume there (emptyDir, configMap, secret, persistentVolumeClaim...)`,
      });
    if (key === 'env')
      (field as Json[]).forEach((entry, i) => {
        if (typeof entry.name !== 'string' || entry.name === '')
          issues.push({ path: `${at}[${i}].name`, rule: 'schema', message: 'name is required' });
      });
    if (key === 'env')
      (field as Json[]).forEach((entry, i) => {
        if (entry.valueFrom !== undefined)
          issues.push({
            path: `${at}[${i}].valueFrom`,
            rule: 'unsupported',
            message: `${at}[${i}].valueFrom is not supported: a pod template's env gives values; read secrets and config maps in the steps' env (valueFrom), where Slipway resolves them`,
          });
        else if (entry.value !== undefined && typeof entry.value !== 'string')
          issues.push({ path: `${at}[${i}].value`, rule: 'schema', message: 'value must be a string' });
      });
  }
  return issues;
}

/** Fields set in a template (an empty template, or one of nulls, is no template). */
const isSet = (template: unknown): template is PodTemplate =>
  isObject(template) && Object.values(template).some((v) => v !== undefined && v !== null);

/** env and volumes merge by name, the template's entry winning (Tekton's mergeByName). */
function mergeByName(base: unknown, overrides: unknown): Json[] | undefined {
  const over = Array.isArray(overrides) ? (overrides as Json[]) : [];
  const under = Array.isArray(base) ? (base as Json[]) : [];
  if (over.length === 0) return under.length > 0 ? under : undefined;
  const names = new Set(over.map((e) => e.name));
  return [...over, ...under.filter((e) => !names.has(e.name))];
}

/**
 * `template` over `defaults`, as Tekton's MergePodTemplateWithDefault: a field the template sets
 * wins, env and volumes merge by name, hostNetwork is true if either says so.
 */
export function mergePodTemplates(template: unknown, defaults: unknown): PodTemplate | undefined {
  if (!isSet(defaults)) return isSet(template) ? template : undefined;
  if (!isSet(template)) return defaults;
  const out: Json = { ...defaults };
  for (const [key, value] of Object.entries(template))
    if (value !== undefined && value !== null && !(key === 'schedulerName' && value === '')) out[key] = value;
  for (const key of ['env', 'volumes']) {
    const merged = mergeByName(defaults[key], template[key]);
    if (merged) out[key] = merged;
    else delete out[key];
  }
  if (defaults.hostNetwork === true) out.hostNetwork = true;
  return out;
}

/** The pod template a pipeline task's runs take, or undefined for none. */
export function podTemplateFor(
  record: Partial<RunDocumentRecord>,
  pipelineTask: string,
): PodTemplate | undefined {
  const spec = (record.taskRunSpecs ?? []).find((s) => s.pipelineTaskName === pipelineTask);
  return mergePodTemplates(spec?.podTemplate, record.podTemplate);
}

/**
 * The template with the task run's params in its strings (nodeSelector keys too), as Tekton's
 * ApplyPodTemplateReplacements does for a TaskRun (a matrix run's own params included); a
 * reference it cannot replace (an unknown param, a whole array, another variable) is left as
 * written, as Tekton leaves it, and the Kubernetes executor refuses it, naming the field.
 */
export function substitutePodTemplate(
  template: PodTemplate,
  params: Readonly<Record<string, ParamValue>>,
): PodTemplate {
  const ctx = { params: { ...params }, leave: (r: { kind: string }) => r.kind !== 'param' };
  const text = (value: string): string => {
    try {
      return substitute(value, ctx);
    } catch {
      return value;
    }
  };
  const walk = (value: unknown): unknown =>
    typeof value === 'string'
      ? text(value)
      : Array.isArray(value)
        ? value.map(walk)
        : isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v)]))
          : value;
  return walk(template) as PodTemplate;
}

/** Every pod template the document gives, with where (a document path). */
export function namedPodTemplates(record: Partial<RunDocumentRecord>): string[] {
  const out: string[] = [];
  if (isSet(record.podTemplate))
    out.push(record.kind === 'TaskRun' ? 'spec.podTemplate' : 'spec.taskRunTemplate.podTemplate');
  (record.taskRunSpecs ?? []).forEach((spec, i) => {
    if (isSet(spec.podTemplate)) out.push(`spec.taskRunSpecs[${i}].podTemplate`);
  });
  return out;
}

/** The refusals of a run created for Slipway's own executor. */
export function serverPodTemplateIssues(record: Partial<RunDocumentRecord>): DefinitionIssue[] {
  return namedPodTemplates(record).map((path) => ({
    path,
    rule: 'pod-template',
    message: `${path}: ${serverPodTemplateRefusal()}`,
  }));
}
