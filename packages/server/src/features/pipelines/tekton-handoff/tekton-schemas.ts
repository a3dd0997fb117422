import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';

/**
 * The Tekton CRDs' OpenAPI v3 schemas (tekton-crds/, copied unmodified from tektoncd/pipeline),
 * and the check of what Slipway hands to Tekton against them, with a real JSON-schema validator
 * (ajv). A PipelineRun's `pipelineSpec` and a pipeline task's `taskSpec` are
 * `x-kubernetes-preserve-unknown-fields` in the PipelineRun CRD (Tekton's webhook checks them):
 * they are checked against the Pipeline and Task CRDs' `spec` schemas, as what they are.
 */

/** One thing the schemas refuse, at its path in the object: `spec.params[0].name`. */
export interface SchemaIssue {
  path: string;
  message: string;
}

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
};

/** src/ in both the sources and dist/ (the copies are not compiled). */
const CRD_DIR = new URL('../../../../src/features/pipelines/tekton-crds/', import.meta.url);

/** The v1 openAPIV3Schema of a CRD file. */
function v1Schema(file: string): Schema {
  const [doc] = parseAllDocuments(readFileSync(new URL(file, CRD_DIR), 'utf8'));
  const crd = doc!.toJS() as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
  };
  const v1 = crd.spec.versions.find((v) => v.name === 'v1');
  if (!v1) throw new Error(`${file} has no v1 version`);
  return v1.schema.openAPIV3Schema;
}

interface Compiled {
  schema: Schema;
  validate: ValidateFunction;
}

let compiled: { pipelineRun: Compiled; pipelineSpec: Compiled; taskSpec: Compiled } | undefined;

function schemas() {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: false });
  // the formats the Tekton CRDs name (the apiserver checks int32/int64 ranges and date-times)
  ajv.addFormat('int32', { type: 'number', validate: (n) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n) => Number.isInteger(n) });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  const compile = (schema: Schema): Compiled => ({ schema, validate: ajv.compile(schema) });
  const pipeline = v1Schema('300-pipeline.yaml');
  const task = v1Schema('300-task.yaml');
  compiled = {
    pipelineRun: compile(v1Schema('300-pipelinerun.yaml')),
    pipelineSpec: compile(pipeline.properties!.spec!),
    taskSpec: compile(task.properties!.spec!),
  };
  return compiled;
}

/** `/spec/params/0/name` → `spec.params[0].name`, under `prefix`. */
function dotted(prefix: string, pointer: string): string {
  let out = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function describe(prefix: string, e: ErrorObject): SchemaIssue {
  const at = dotted(prefix, e.instancePath);
  if (e.keyword === 'required') {
    const field = (e.params as { missingProperty: string }).missingProperty;
    return { path: at ? `${at}.${field}` : field, message: 'Required value' };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
    return { path: at, message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` };
  }
  return { path: at, message: e.message ?? e.keyword };
}

/**
 * Fields the schema does not declare: the apiserver prunes them from a CRD object without a
 * word, so they are refused here rather than silently lost.
 */
function unknownFields(value: unknown, schema: Schema | undefined, path: string, out: SchemaIssue[]): void {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownFields(item, schema.items, `${path}[${i}]`, out));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const declared = schema.properties?.[key];
    if (declared) unknownFields(child, declared, at, out);
    else if (typeof schema.additionalProperties === 'object')
      unknownFields(child, schema.additionalProperties, at, out);
    else if (schema.properties && schema.additionalProperties !== true)
      out.push({
        path: at,
        message: 'unknown field: the CRD schema does not declare it (the API server would drop it)',
      });
  }
}

function check(c: Compiled, value: unknown, prefix: string, out: SchemaIssue[]): void {
  if (!c.validate(value)) {
    const seen = new Set<string>();
    for (const e of c.validate.errors ?? []) {
      // anyOf (int-or-string) reports each branch: its summary is enough
      if (e.schemaPath.includes('/anyOf/')) continue;
      const issue = describe(prefix, e);
      const key = `${issue.path} ${issue.message}`;
      if (!seen.has(key)) out.push(issue);
      seen.add(key);
    }
  }
  unknownFields(value, c.schema, prefix, out);
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;

/**
 * What the Tekton CRDs' schemas refuse in a `tekton.dev/v1` PipelineRun: the object itself, its
 * `spec.pipelineSpec` as a Pipeline's spec, and each inline `taskSpec` as a Task's spec (its
 * `metadata` apart). Empty when it is valid.
 */
export function pipelineRunIssues(pipelineRun: unknown): SchemaIssue[] {
  const s = schemas();
  const out: SchemaIssue[] = [];
  check(s.pipelineRun, pipelineRun, '', out);
  const pipelineSpec = asObj(asObj(asObj(pipelineRun)?.spec)?.pipelineSpec);
  if (!pipelineSpec) return out;
  check(s.pipelineSpec, pipelineSpec, 'spec.pipelineSpec', out);
  for (const list of ['tasks', 'finally'] as const) {
    const tasks = Array.isArray(pipelineSpec[list]) ? (pipelineSpec[list] as unknown[]) : [];
    tasks.forEach((task, i) => {
      const taskSpec = asObj(asObj(task)?.taskSpec);
      if (!taskSpec) return;
      const { metadata: _metadata, ...spec } = taskSpec;
      check(s.taskSpec, spec, `spec.pipelineSpec.${list}[${i}].taskSpec`, out);
    });
  }
  return out;
}

/** Thrown when an object Slipway would hand to Tekton does not pass the CRD schemas. */
export class TektonSchemaError extends Error {
  constructor(readonly issues: SchemaIssue[]) {
    super(
      `the PipelineRun does not pass the Tekton CRD schemas: ${issues
        .slice(0, 5)
        .map((i) => `${i.path}: ${i.message}`)
        .join('; ')}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`,
    );
    this.name = 'TektonSchemaError';
  }
}
