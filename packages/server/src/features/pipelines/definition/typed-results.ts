import type { ParamType, ParamValue, TaskResult } from './model.js';

/** A declared result's type: as written, else an object when it has `properties`, else a string. */
export function resultType(result: Pick<TaskResult, 'type' | 'properties'>): ParamType {
  return result.type ?? (result.properties ? 'object' : 'string');
}

export interface TypedResults {
  results: Record<string, ParamValue>;
  /** Set when a result does not match its declaration; the task run then fails, as in Tekton. */
  error?: string;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((item) => typeof item === 'string');

/**
 * A task's results as their declared types: the text of a string result as it is, an array or
 * object result parsed from the JSON its step wrote (`["a","b"]`, `{"url":"…"}`), as Tekton
 * reads them. A value that is not JSON of its type, or an object missing a declared property,
 * is an error naming the result; results the task did not write stay absent.
 */
export function typedResults(
  declared: readonly Pick<TaskResult, 'name' | 'type' | 'properties'>[] | undefined,
  raw: Readonly<Record<string, string>>,
): TypedResults {
  const results: Record<string, ParamValue> = {};
  for (const [name, text] of Object.entries(raw)) {
    const declaration = declared?.find((r) => r.name === name);
    const type = declaration ? resultType(declaration) : 'string';
    if (type === 'string') {
      results[name] = text;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (type === 'array' && !isStrings(value))
      return { results, error: mismatch(name, type, 'a JSON array of strings', text) };
    if (type === 'object') {
      if (!isStringRecord(value))
        return { results, error: mismatch(name, type, 'a JSON object of string values', text) };
      const missing = Object.keys(declaration?.properties ?? {}).filter((key) => !Object.hasOwn(value, key));
      if (missing.length > 0)
        return {
          results,
          error: `result "${name}" is an object missing the keys its properties declare: ${missing.join(', ')}`,
        };
    }
    results[name] = value as ParamValue;
  }
  return { results };
}

function mismatch(name: string, type: ParamType, expected: string, text: string): string {
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return `result "${name}" is declared an ${type} but its file does not hold ${expected}: ${JSON.stringify(shown)}`;
}
