import { runWorkspaceBindingSchema, type RunWorkspaceBinding } from '@slipway/contracts';
import {
  parseDuration,
  formatPath,
  type DefinitionIssue,
  type Param,
  type ParamValue,
} from '../pipelines/definition/index.js';

/*
 * The run-level rules a PipelineRun or TaskRun document is read by: its name, what of `spec`
 * Slipway honours, and the refusals (with the reason) of what it cannot. Shared by both kinds.
 */

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The longest a run may take (the API's timeoutHours maximum, 168 h): also what Tekton's "0" means here. */
export const MAX_RUN_MS = 168 * 3_600_000;

/** The one service account a task runs as here: the namespace's default (pods name none). */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

const RFC1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Kubernetes' generateName suffix: 5 characters of this alphabet (no vowels, no look-alikes). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const unsupported = (path: string, message: string): DefinitionIssue => ({
  path,
  rule: 'unsupported',
  message,
});

/** Metadata a run keeps; anything else (uid, resourceVersion, finalizers, ownerReferences...) is refused. */
const METADATA_FIELDS = new Set(['name', 'generateName', 'namespace', 'labels', 'annotations']);

export interface RunMetadata {
  name: string | undefined;
  generateName: string | undefined;
  namespace: string | undefined;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

function stringMap(value: unknown, path: string, issues: DefinitionIssue[]): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    issues.push({ path, rule: 'schema', message: `${path} must be a map of strings` });
    return {};
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/** `metadata`: a name (or generateName) Kubernetes would take for a PipelineRun or TaskRun. */
export function readMetadata(raw: unknown, issues: DefinitionIssue[]): RunMetadata {
  const metadata = isObject(raw) ? raw : {};
  for (const key of Object.keys(metadata))
    if (!METADATA_FIELDS.has(key))
      issues.push(
        unsupported(
          `metadata.${key}`,
          `metadata.${key} cannot be set on a run created here: give name (or generateName), labels and annotations`,
        ),
      );
  const text = (key: string) => (typeof metadata[key] === 'string' ? metadata[key] : undefined);
  const name = text('name') || undefined;
  const generateName = text('generateName') || undefined;
  if (!name && !generateName)
    issues.push({
      path: 'metadata',
      rule: 'name-required',
      message: 'give metadata.name or metadata.generateName (as kubectl create needs one)',
    });
  if (name && (name.length > 63 || !RFC1123_LABEL.test(name)))
    issues.push({
      path: 'metadata.name',
      rule: 'name',
      message: `"${name}" is not a valid run name: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`,
    });
  if (!name && generateName && (generateName.length > 58 || !/^[a-z0-9]([-a-z0-9]*)?$/.test(generateName)))
    issues.push({
      path: 'metadata.generateName',
      rule: 'name',
      message: `"${generateName}" is not a valid generateName: at most 58 lower-case letters, digits and '-', starting with a letter or digit`,
    });
  return {
    name,
    generateName,
    namespace: text('namespace') || undefined,
    labels: stringMap(metadata.labels, 'metadata.labels', issues),
    annotations: stringMap(metadata.annotations, 'metadata.annotations', issues),
  };
}

/** The run's name: metadata.name, else generateName and five random characters, as Kubernetes does. */
export function runNameOf(
  metadata: Pick<RunMetadata, 'name' | 'generateName'>,
  random = Math.random,
): string {
  if (metadata.name) return metadata.name;
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += SUFFIX_ALPHABET[Math.floor(random() * SUFFIX_ALPHABET.length)];
  return `${metadata.generateName ?? 'run-'}${suffix}`;
}

/** Refuses the fields of `spec` that are not fields of the kind at all (kubectl's strict decoding). */
export function unknownFields(spec: Json, known: readonly string[], path: string, kind: string) {
  return Object.keys(spec)
    .filter((key) => !known.includes(key))
    .map((key) => ({
      path: `${path}.${key}`,
      rule: 'unknown-field',
      message: `${key} is not a field of a ${kind}`,
    }));
}

/** A field Slipway cannot honour, refused unless absent or empty. */
export function refuseIfSet(value: unknown, path: string, why: string): DefinitionIssue[] {
  if (value === undefined || value === null) return [];
  if (isObject(value) && Object.keys(value).length === 0) return [];
  if (Array.isArray(value) && value.length === 0) return [];
  return [unsupported(path, `${path} is not supported: ${why}`)];
}

/** A Kubernetes object name (RFC 1123 subdomain), as a ServiceAccount's name is. */
const RFC1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * `serviceAccountName`: a ServiceAccount's name. Honoured where the environment's cluster runs the
 * tasks (the pods, or Tekton there); a run on the server refuses any but "default" (see
 * run-service-accounts.ts).
 */
export function serviceAccountIssues(value: unknown, path: string): DefinitionIssue[] {
  if (value === undefined) return [];
  if (typeof value !== 'string' || value.length > 253 || !RFC1123_SUBDOMAIN.test(value))
    return [
      {
        path,
        rule: 'service-account',
        message: `${JSON.stringify(value)} is not a service account name: lower-case letters, digits, '-' and '.', at most 253`,
      },
    ];
  return [];
}

export const COMPUTE_RESOURCES_WHY = 'Slipway does not set CPU or memory requests and limits on task pods';

/** A duration field as milliseconds: "0" (no timeout in Tekton) is the longest run Slipway allows. */
export function timeoutMs(text: unknown, path: string, issues: DefinitionIssue[]): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(String(text));
  if (ms === null) {
    issues.push({ path, rule: 'duration', message: 'not a duration: write it like 1h30m, 10m or 90s' });
    return undefined;
  }
  if (ms === 0) return MAX_RUN_MS;
  if (ms > MAX_RUN_MS) {
    issues.push({ path, rule: 'timeout', message: 'a run may take at most 168h (use "0" for the longest)' });
    return undefined;
  }
  return ms;
}

/** `params` as the run's params, each name once. */
export function paramsOf(
  params: readonly Param[] | undefined,
  path: string,
  issues: DefinitionIssue[],
): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  (params ?? []).forEach((param, i) => {
    if (Object.hasOwn(out, param.name))
      issues.push({
        path: `${path}[${i}].name`,
        rule: 'duplicate-param',
        message: `param "${param.name}" is given twice`,
      });
    out[param.name] = param.value;
  });
  return out;
}

/** `workspaces` as the run's workspace bindings (the same rules as the API's `workspaces`). */
export function bindingsOf(raw: unknown, path: string, issues: DefinitionIssue[]): RunWorkspaceBinding[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    issues.push({ path, rule: 'schema', message: `${path} must be a list of workspace bindings` });
    return [];
  }
  const names = new Set<string>();
  const out: RunWorkspaceBinding[] = [];
  raw.forEach((binding, i) => {
    const parsed = runWorkspaceBindingSchema.safeParse(binding);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        issues.push({
          path: `${path}[${i}]${issue.path.length > 0 ? `.${formatPath(issue.path as PropertyKey[])}` : ''}`,
          rule: 'workspace-binding',
          message: issue.message,
        });
      return;
    }
    if (names.has(parsed.data.name))
      issues.push({
        path: `${path}[${i}].name`,
        rule: 'duplicate-workspace',
        message: `workspace "${parsed.data.name}" is bound twice`,
      });
    names.add(parsed.data.name);
    out.push(parsed.data);
  });
  return out;
}

/** A ref that asks for remote resolution (git, hub, bundles, cluster): refused. */
export function resolverIssues(ref: Json, path: string): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  for (const key of ['resolver', 'params', 'bundle'])
    if (ref[key] !== undefined)
      issues.push(
        unsupported(
          `${path}.${key}`,
          `remote resolution (${key}) is not supported: store the ${path.endsWith('taskRef') ? 'Task as a task template' : 'Pipeline in Slipway'} and reference it by name`,
        ),
      );
  if (typeof ref.name !== 'string' || ref.name === '')
    issues.push({ path: `${path}.name`, rule: 'schema', message: 'name is required' });
  return issues;
}

/** The issues without a schema issue that another rule already reports at the same path. */
export function withoutEchoes(issues: readonly DefinitionIssue[]): DefinitionIssue[] {
  const named = new Set(issues.filter((i) => i.rule !== 'schema').map((i) => i.path));
  return issues.filter((i) => i.rule !== 'schema' || !named.has(i.path));
}
