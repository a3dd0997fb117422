import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/*
 * The Tekton CRDs' v1 OpenAPI schemas (pipelines/tekton-crds/, copied unmodified from
 * tektoncd/pipeline), compiled with a JSON-schema validator, for tests to hold an exported
 * PipelineRun to what a Kubernetes API server serving Tekton would accept. The PipelineRun CRD
 * leaves `pipelineSpec` open (x-kubernetes-preserve-unknown-fields): it is checked against the
 * Pipeline CRD's `spec` schema, as Tekton's webhook would.
 */

type Schema = { properties?: Record<string, Schema> } & Record<string, unknown>;

function v1Schema(file: string): Schema {
  const crd = parse(readFileSync(new URL(`../pipelines/tekton-crds/${file}`, import.meta.url), 'utf8')) as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
  };
  return crd.spec.versions.find((v) => v.name === 'v1')!.schema.openAPIV3Schema;
}

let validators: { pipelineRun: ValidateFunction; pipelineSpec: ValidateFunction } | undefined;

function compile() {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  validators = {
    pipelineRun: ajv.compile(v1Schema('300-pipelinerun.yaml')),
    pipelineSpec: ajv.compile(v1Schema('300-pipeline.yaml').properties!.spec!),
  };
  return validators;
}

/** What the v1 PipelineRun CRD (and, for its pipelineSpecs, the Pipeline CRD) refuses in `doc`. */
export function crdIssues(doc: Record<string, unknown>): string[] {
  const { pipelineRun, pipelineSpec } = compile();
  const issues: string[] = [];
  const check = (validate: ValidateFunction, value: unknown, at: string) => {
    if (!validate(value))
      issues.push(...(validate.errors ?? []).map((e) => `${at}${e.instancePath}: ${e.message ?? 'invalid'}`));
  };
  check(pipelineRun, doc, '');
  const spec = (doc.spec ?? {}) as Record<string, unknown>;
  const status = (doc.status ?? {}) as Record<string, unknown>;
  if (spec.pipelineSpec) check(pipelineSpec, spec.pipelineSpec, '/spec/pipelineSpec');
  if (status.pipelineSpec) check(pipelineSpec, status.pipelineSpec, '/status/pipelineSpec');
  return issues;
}
