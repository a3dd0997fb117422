import type { DefinitionIssue, SubstitutionError } from './definition-issue.js';
import type { Param, ParamValue, Pipeline, PipelineSpec } from './model.js';
import { paramValueType, withObjectDefault } from './model.js';
import { resolveDefaultReferences } from './param-defaults.js';
import type { Reference } from './references.js';
import {
  resolveReference,
  substituteParamValue,
  type ContextVariables,
  type SubstitutionContext,
} from './substitute.js';

export type PipelineParamsResult =
  { ok: true; params: Record<string, ParamValue> } | { ok: false; errors: DefinitionIssue[] };

const specOf = (pipeline: Pipeline | PipelineSpec) => ('spec' in pipeline ? pipeline.spec : pipeline);

/**
 * The params a run starts with: supplied values over the pipeline's defaults. Errors (path
 * `params.<name>`) for a missing required param or a value of the wrong type. A param the
 * pipeline does not declare is kept: Tekton propagates it into inline taskSpecs (and ignores it
 * elsewhere). With `context`, the `$(context.pipelineRun.*)` and `$(context.pipeline.name)` a
 * value holds (a default's, typically) are substituted, as Tekton applies them after the params.
 */
export function resolvePipelineParams(
  pipeline: Pipeline | PipelineSpec,
  supplied: Readonly<Record<string, ParamValue>> | readonly Param[] = {},
  context?: ContextVariables,
): PipelineParamsResult {
  const spec = specOf(pipeline);
  const given = new Map<string, ParamValue>(
    Array.isArray(supplied) ? supplied.map((p: Param) => [p.name, p.value]) : Object.entries(supplied),
  );
  const errors: DefinitionIssue[] = [];
  let params: Record<string, ParamValue> = {};
  const defaulted = new Set<string>();
  for (const [name, value] of given) if (!spec.params?.some((p) => p.name === name)) params[name] = value;
  for (const param of spec.params ?? []) {
    if (!given.has(param.name)) defaulted.add(param.name);
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
  if (errors.length > 0) return { ok: false, errors };
  try {
    params = resolveDefaultReferences(params, defaulted);
  } catch (error) {
    const name = /^\$\(params\.(.+)\)$/.exec((error as SubstitutionError).reference ?? '')?.[1] ?? '';
    return {
      ok: false,
      errors: [{ path: `params.${name}`, rule: 'param-default', message: (error as Error).message }],
    };
  }
  return { ok: true, params: context ? withContext(params, context) : params };
}

/** Param values with the pipeline context variables they hold substituted; any other reference stays. */
function withContext(params: Record<string, ParamValue>, context: ContextVariables) {
  const ctx: SubstitutionContext = {
    context,
    leave: (reference) =>
      reference.kind !== 'context' ||
      !/^(pipelineRun|pipeline)\./.test(reference.variable) ||
      contextUnknown(reference, context),
  };
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, substituteParamValue(value, ctx)]),
  );
}

function contextUnknown(reference: Reference, context: ContextVariables): boolean {
  try {
    resolveReference(reference, { context });
    return false;
  } catch {
    return true;
  }
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
