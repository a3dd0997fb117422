/** One problem found in a definition: where it is, which rule it breaks, and what to do. */
export interface DefinitionIssue {
  /** Path inside the document, e.g. `spec.tasks[2].runAfter[0]`. */
  path: string;
  /** A short rule id, e.g. `unknown-run-after`, `cycle`, `yaml-syntax`. */
  rule: string;
  message: string;
  /** Index of the document in a multi-document YAML stream (0-based). */
  document?: number;
  /** 1-based position in the source text, when known. */
  line?: number;
  column?: number;
}

export type ValidationResult = { ok: true } | { ok: false; errors: DefinitionIssue[] };

export function toValidationResult(errors: DefinitionIssue[]): ValidationResult {
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

/** Formats a path from segments: `['spec', 'tasks', 2, 'name']` → `spec.tasks[2].name`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** A `$(...)` reference that cannot be resolved at run time. */
export class SubstitutionError extends Error {
  constructor(
    readonly reference: string,
    message: string,
  ) {
    super(message);
    this.name = 'SubstitutionError';
  }
}
