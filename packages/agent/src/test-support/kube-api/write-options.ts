import { HttpError } from './types.js';

type Options = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

interface Cause {
  reason: string;
  field: string;
  message: string;
}

const goQuote = (s: string) => JSON.stringify(s);

/**
 * The apiserver's checks of a write's query options (ValidateCreateOptions, ValidateUpdateOptions,
 * ValidatePatchOptions in apimachinery): a 422 on `CreateOptions.meta.k8s.io ""` and so on.
 */
export function validateWriteOptions(kind: Options, query: Record<string, string>, apply = false): void {
  const causes: Cause[] = [];
  const manager = query.fieldManager ?? '';
  if (kind === 'PatchOptions') {
    if (apply && !manager) {
      causes.push({
        reason: 'FieldValueRequired',
        field: 'fieldManager',
        message: 'Required value: is required for apply patch',
      });
    }
    if (!apply && query.force !== undefined) {
      causes.push({
        reason: 'FieldValueForbidden',
        field: 'force',
        message: 'Forbidden: may not be specified for non-apply patch',
      });
    }
  }
  if (manager.length > 128) {
    causes.push({
      reason: 'FieldValueTooLong',
      field: 'fieldManager',
      message: 'Too long: may not be more than 128 bytes',
    });
  }
  if (query.dryRun !== undefined && query.dryRun !== 'All') {
    causes.push({
      reason: 'FieldValueNotSupported',
      field: 'dryRun',
      message: `Unsupported value: []string{${goQuote(query.dryRun)}}: supported values: "All"`,
    });
  }
  const validation = query.fieldValidation;
  if (validation !== undefined && !['', 'Ignore', 'Warn', 'Strict'].includes(validation)) {
    causes.push({
      reason: 'FieldValueNotSupported',
      field: 'fieldValidation',
      message: `Unsupported value: ${goQuote(validation)}: supported values: "", "Ignore", "Strict", "Warn"`,
    });
  }
  if (causes.length === 0) return;
  const text = causes.map((c) => `${c.field}: ${c.message}`);
  throw new HttpError(
    422,
    'Invalid',
    `${kind}.meta.k8s.io "" is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}`,
    { group: 'meta.k8s.io', kind, causes },
  );
}
