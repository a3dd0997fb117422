import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { errorResponseSchema, MESSAGES } from '@slipway/contracts';

export type ApiError = FetchBaseQueryError | SerializedError | undefined;

type Detail = { path: string; message: string };

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

/** Where in the request a path points (`body.name`, `querystring._sort`, `params.id`, `/name`). */
const LOCATION = /^(?:\/|(?:body|querystring|query|params|headers)(?:[./]|$))/;
/** A message that starts with a request path: `body.name: Name is required`. */
const PATH_PREFIX = /^((?:body|querystring|query|params|headers)(?:[./][^\s:]*)?): (.*)$/s;
/** A bare field name (`environmentId`, `code`), as some refusals give their path. */
const BARE_FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Words a field name is spelled in capitals. */
const ACRONYMS = new Set([
  'api',
  'dns',
  'http',
  'https',
  'id',
  'ldap',
  'oidc',
  'sso',
  'ssh',
  'tls',
  'uri',
  'url',
]);

/** A path's segments after the request location: `body.source.url` is `source`, `url`. */
function segmentsOf(path: string): string[] {
  return path
    .replace(LOCATION, '')
    .split(/[./[\]]/)
    .filter(Boolean);
}

/** A field name in words: `rollbackPipelineId` is `rollback pipeline id`. */
function words(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A request path in words for people: `body.groupRoles.0.workspaceId` is `Group roles 1 › workspace ID`. */
export function fieldLabel(path: string): string {
  const parts: string[] = [];
  for (const segment of segmentsOf(path)) {
    if (/^\d+$/.test(segment) && parts.length > 0) parts[parts.length - 1] += ` ${Number(segment) + 1}`;
    else
      parts.push(
        words(segment)
          .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w))
          .join(' '),
      );
  }
  return capitalised(parts.join(' › '));
}

/** Whether a message names the field itself ("Name is required" does; "is required" does not). */
function namesField(message: string, path: string): boolean {
  const last = segmentsOf(path)
    .filter((s) => !/^\d+$/.test(s))
    .at(-1);
  if (!last) return true;
  const text = message.toLowerCase();
  const escaped = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return words(last).some(
    (w) => (w.length >= 3 || ACRONYMS.has(w)) && new RegExp(`\\b${escaped(w)}`).test(text),
  );
}

/**
 * One refusal in words: a request path (`body.…`, `querystring.…`, `params.…`, or a bare field
 * name) never shows; the message alone does when it names its field, else the field's name in
 * words leads it ("Definition: must be a string"). Other paths (a place in a pipeline
 * definition, "spec.tasks (line 3, column 5)") mean something to the user and stay.
 */
export function describeDetail({ path, message }: Detail): string {
  const text = message.trim();
  if (!LOCATION.test(path) && !BARE_FIELD.test(path)) return path ? `${path}: ${text}` : text;
  if (namesField(text, path)) return capitalised(text);
  const label = fieldLabel(path);
  return label ? `${label}: ${text}` : capitalised(text);
}

/** A message without the request path it may start with (`body.name: …`, `querystring._sort: …`). */
function withoutPath(message: string): string {
  const m = PATH_PREFIX.exec(message);
  return m ? describeDetail({ path: m[1]!, message: m[2]! }) : message;
}

/**
 * What to tell the user about a failed call: the API's own message (spec wording, such as
 * 'Invalid credentials') without any request path it starts with ('body.name: Name is required'
 * is 'Name is required'), or the default 'Something went wrong. Please try again!'.
 */
export function errorMessage(error: ApiError): string {
  const message = errorBody(error)?.message;
  return message === undefined ? MESSAGES.somethingWentWrongDefault : withoutPath(message);
}

/**
 * Which field a path names: the first of its segments that is one of the form's `known` fields
 * (so `source.url` is the field `url`), else its first segment.
 */
export function fieldOfPath(segments: readonly string[], known?: readonly string[]): string {
  return (known && segments.find((s) => known.includes(s))) || (segments[0] ?? '');
}

/** The field a detail's path names (its request location left out). */
function fieldOf(detail: Detail, known?: readonly string[]): string {
  return fieldOfPath(detail.path.replace(LOCATION, '').split(/[./]/), known);
}

/** The API's per-field messages (`details`), keyed by the field each path names. */
export function fieldErrors(error: ApiError, known?: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of errorBody(error)?.details ?? []) {
    const field = fieldOf(d, known);
    if (field && !Object.hasOwn(out, field)) out[field] = d.message;
  }
  return out;
}

/** How many refusals a form's alert lists before it stops. */
const MOST_IN_ALERT = 3;

/**
 * A failed form submission, split for display: per-field messages go under their fields (given
 * the form's `known` fields, only those; without them, every detail's field).
 *
 * The form's alert:
 * - when the overall message only repeats a detail (the server's "body.name: Name is required"),
 *   it says the details no field shows, in words (`describeDetail`), and nothing when every
 *   detail is under a field;
 * - otherwise the overall message is the API's own wording ("Current password is incorrect"):
 *   it shows (without any request path) unless a field already says the same;
 * - a failure without details shows its message (or the default one).
 */
export function formErrors(
  error: ApiError,
  known?: readonly string[],
): { fields: Record<string, string>; message: string | null } {
  const all = fieldErrors(error, known);
  const fields = known ? Object.fromEntries(Object.entries(all).filter(([k]) => known.includes(k))) : all;
  const body = errorBody(error);
  const details = body?.details ?? [];
  const repeatsDetail = details.some(
    (d) => body!.message === d.message || body!.message.endsWith(`: ${d.message}`),
  );
  if (!repeatsDetail) {
    const message = errorMessage(error);
    const said = Object.values(fields);
    return { fields, message: said.includes(message) || said.includes(body?.message ?? '') ? null : message };
  }
  // a detail that is the overall message word for word is the API's own sentence: it stays whole
  const unshown = [
    ...new Set(
      details
        .filter((d) => !Object.hasOwn(fields, fieldOf(d, known)))
        .map((d) => (d.message === body!.message ? d.message : describeDetail(d))),
    ),
  ];
  if (unshown.length === 0) return { fields, message: null };
  const listed = unshown.slice(0, MOST_IN_ALERT).join('; ');
  return { fields, message: unshown.length > MOST_IN_ALERT ? `${listed}; …` : listed };
}
