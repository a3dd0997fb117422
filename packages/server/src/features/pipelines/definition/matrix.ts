import type { Matrix, ParamValue, PipelineTask } from './model.js';
import { substituteParamValue, type SubstitutionContext } from './substitute.js';

/** Tekton's default ceiling on the runs one matrix may fan out into. */
export const MAX_MATRIX_COMBINATIONS = 256;

export type Combination = Record<string, string>;

export function isMatrixed(task: PipelineTask): boolean {
  return Boolean(task.matrix?.params?.length || task.matrix?.include?.length);
}

const asStrings = (name: string, value: ParamValue): string[] => {
  if (Array.isArray(value)) return value;
  throw new Error(`matrix param "${name}" must be an array, got ${JSON.stringify(value)}`);
};

const includeCombination = (entry: NonNullable<Matrix['include']>[number], ctx: SubstitutionContext) =>
  Object.fromEntries(entry.params.map((p) => [p.name, String(substituteParamValue(p.value, ctx))]));

/** Every key the two share has the same value. */
const agrees = (combination: Combination, include: Combination) =>
  Object.entries(include).every(([k, v]) => !(k in combination) || combination[k] === v);

/**
 * The combinations of a matrix, in Tekton's order: the first param varies fastest. Each `include`
 * entry adds its params to every combination it agrees with, and becomes a combination of its own
 * when none of its values appears in any combination. `$(...)` in values are substituted first.
 */
export function matrixCombinations(matrix: Matrix, ctx: SubstitutionContext = {}): Combination[] {
  const includes = (matrix.include ?? []).map((entry) => includeCombination(entry, ctx));
  if (!matrix.params?.length) return includes;
  let combinations: Combination[] = [];
  for (const param of matrix.params) {
    const values = asStrings(param.name, substituteParamValue(param.value, ctx));
    combinations =
      combinations.length === 0
        ? values.map((value) => ({ [param.name]: value }))
        : values.flatMap((value) => combinations.map((c) => ({ ...c, [param.name]: value })));
  }
  for (const combination of combinations)
    for (const include of includes) if (agrees(combination, include)) Object.assign(combination, include);
  for (const include of includes) {
    const shared = (c: Combination) => Object.entries(include).some(([k, v]) => c[k] === v);
    if (Object.keys(include).length > 0 && !combinations.some(shared)) combinations.push(include);
  }
  return combinations;
}

/**
 * Fans a matrixed pipeline task out into plain pipeline tasks named `<task>-0`, `<task>-1`, …,
 * each with its combination added to its params. A task without a matrix comes back alone.
 */
export function expandMatrix(task: PipelineTask, ctx: SubstitutionContext = {}): PipelineTask[] {
  if (!task.matrix || !isMatrixed(task)) return [task];
  const combinations = matrixCombinations(task.matrix, ctx);
  if (combinations.length > MAX_MATRIX_COMBINATIONS)
    throw new Error(
      `matrix of task "${task.name}" makes ${combinations.length} combinations, more than ${MAX_MATRIX_COMBINATIONS}`,
    );
  return combinations.map((combination, index) => {
    const { matrix: _matrix, ...rest } = task;
    const params = Object.keys(combination)
      .sort()
      .map((name) => ({ name, value: combination[name]! }));
    return { ...rest, name: `${task.name}-${index}`, params: [...(task.params ?? []), ...params] };
  });
}

/**
 * Results of a matrixed task for its consumers (`$(tasks.t.results.r[*])`): each string result
 * becomes an array in combination order. Runs that did not produce a result are left out of it.
 */
export function aggregateMatrixResults(
  runs: readonly Readonly<Record<string, ParamValue>>[],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const results of runs)
    for (const [name, value] of Object.entries(results)) {
      if (typeof value !== 'string') continue;
      (out[name] ??= []).push(value);
    }
  return out;
}
