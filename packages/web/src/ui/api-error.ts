import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { errorResponseSchema, MESSAGES } from '@slipway/contracts';

export type ApiError = FetchBaseQueryError | SerializedError | undefined;

/** The HTTP status of a failed call, or undefined for a fetch-layer failure. */
export function errorStatus(error: ApiError): number | undefined {
  return error && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

/** The API's error document, when the answer was one. */
function errorBody(error: ApiError) {
  if (!error || !('status' in error)) return undefined;
  const parsed = errorResponseSchema.safeParse(error.data);
  return parsed.success ? parsed.data : undefined;
}

/**
 * What to tell the user about a failed call: the API's own message (spec wording, such as
 * 'Invalid credentials'), or the default 'Something went wrong. Please try again!'.
 */
export function errorMessage(error: ApiError): string {
  return errorBody(error)?.message ?? MESSAGES.somethingWentWrongDefault;
}

/**
 * Which field a path names: the first of its segments that is one of the form's `known` fields
 * (so `source.url` is the field `url`), else its first segment.
 */
export function fieldOfPath(segments: readonly string[], known?: readonly string[]): string {
  return (known && segments.find((s) => known.includes(s))) || (segments[0] ?? '');
}

/** The API's per-field messages (`details`), keyed by the field each path names. */
export function fieldErrors(error: ApiError, known?: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of errorBody(error)?.details ?? []) {
    const field = fieldOfPath(d.path.replace(/^\/|^body[./]/, '').split(/[./]/), known);
    if (field && !out[field]) out[field] = d.message;
  }
  return out;
}

/**
 * A failed form submission, split for display: per-field messages go under their fields, and the
 * overall message goes in the form's alert unless a field already says the same. Given the form's
 * `known` fields, details about any other field are left out (nothing would show them), so the
 * overall message stays unless a shown field says it.
 */
export function formErrors(
  error: ApiError,
  known?: readonly string[],
): { fields: Record<string, string>; message: string | null } {
  const all = fieldErrors(error, known);
  const fields = known ? Object.fromEntries(Object.entries(all).filter(([k]) => known.includes(k))) : all;
  const message = errorMessage(error);
  return { fields, message: Object.values(fields).includes(message) ? null : message };
}
