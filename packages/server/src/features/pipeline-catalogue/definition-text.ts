import type { DefinitionFormat } from '@slipway/contracts';
import type { DefinitionIssue } from '../pipelines/definition/index.js';
import { InputError } from '../../platform/errors.js';

/** JSON when the text is a JSON object or array; YAML otherwise (JSON is YAML, but it is exported as JSON). */
export function formatOf(text: string): DefinitionFormat {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return 'yaml';
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    return 'yaml';
  }
}

function where(issue: DefinitionIssue): string {
  const at = issue.line !== undefined ? ` (line ${issue.line}, column ${issue.column ?? 1})` : '';
  const doc = issue.document && issue.document > 0 ? `document ${issue.document + 1}: ` : '';
  return `${doc}${issue.path || 'definition'}${at}`;
}

/** The 400 for an invalid definition: the first issue in the message, every issue in details. */
export function definitionError(errors: readonly DefinitionIssue[]): InputError {
  const details = errors.map((e) => ({ path: where(e), message: `${e.message} [${e.rule}]` }));
  const first = errors[0];
  return new InputError(first ? `${where(first)}: ${first.message}` : 'The definition is invalid', details);
}
