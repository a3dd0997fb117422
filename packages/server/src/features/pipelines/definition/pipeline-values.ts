import type { DefinitionIssue } from './definition-issue.js';
import type { Param, ParamValue, Pipeline, PipelineSpec } from './model.js';
import { paramValueType, withObjectDefault } from './model.js';
import { substituteParamValue, type SubstitutionContext } from './substitute.js';

export type PipelineParamsResult =
  { ok: true; params: Record<string, ParamValue> } | { ok: false; errors: DefinitionIssue[] };

const specOf = (pipeline: Pipeline | PipelineSpec) => ('spec' in pipeline ? pipeline.spec : pipeline);

/**
 * The params a run starts with: supplied values over the pipeline's defaults. Errors (path
 * `params.<name>`) for an unknown param, a missing required one, or a value of the wrong type.
 */
export function resolvePipelineParams(
  pipeline: Pipeline | PipelineSpec,
  supplied: Readonly<Record<string, ParamValue>> | readonly Param[] = {},
): PipelineParamsResult {
  const spec = specOf(pipeline);
  const given = new Map<string, ParamValue>(
    Array.isArray(supplied) ? supplied.map((p: Param) => [p.name, p.value]) : Object.entries(supplied),
  );
  const errors: DefinitionIssue[] = [];
  const params: Record<string, ParamValue> = {};
  for (const [name] of given)
    if (!spec.params?.some((p) => p.name === name))
      errors.push({
        path: `params.${name}`,
        rule: 'unknown-param',
        message: `the pipeline declares no param "${name}"`,
      });
  for (const param of spec.params ?? []) {
    let value = given.get(param.name) ?? param.default;
    if (value === undefined) {
      errors.push({
        path: `params.${param.name}`,
        rule: 'missing-param',
        message: `param "${param.name}" is required`,
      });
      continue;
    }
    value = withObjectDefault(param, value);
    if (paramValueType(value) !== param.type) {
      const message = `param "${param.name}" is of type ${param.type}, got ${JSON.stringify(value)}`;
      errors.push({ path: `params.${param.name}`, rule: 'param-type', message });
      continue;
    }
    if (param.enum?.length && typeof value === 'string' && !param.enum.includes(value)) {
      const message = `param "${param.name}" must be one of ${param.enum.join(', ')}`;
      errors.push({ path: `params.${param.name}`, rule: 'param-enum', message });
      continue;
    }
    params[param.name] = value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, params };
}

/**
 * The pipeline's results once the run is done. As in Tekton, a result whose references cannot
 * be resolved (its task failed or was skipped) is left out rather than failing the run.
 */
export function resolvePipelineResults(
  pipeline: Pipeline | PipelineSpec,
  ctx: SubstitutionContext,
): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const result of specOf(pipeline).results ?? []) {
    try {
      out[result.name] = substituteParamValue(result.value, ctx);
    } catch {
      // omitted, like Tekton
    }
  }
  return out;
}
