import { describe, expect, it } from 'vitest';
import {
  describeDetail,
  errorMessage,
  errorStatus,
  fieldErrors,
  fieldLabel,
  formErrors,
  type ApiError,
} from './api-error';

type Detail = { path: string; message: string };

/** The API's error document as RTK Query hands it over. */
const refusal = (message: string, details?: Detail[], status = 400): ApiError => ({
  status,
  data: {
    statusCode: status,
    error: 'Bad Request',
    message,
    requestId: 'req-1',
    ...(details ? { details } : {}),
  },
});

/** What the server answers a failed schema check with (error-handler.ts): the first detail leads. */
const validation = (...details: Detail[]) => refusal(`${details[0]!.path}: ${details[0]!.message}`, details);

const RAW_PATH = /\b(body|query|querystring|params)[.:]/;

describe('errorMessage', () => {
  it('leaves out the request path a validation message starts with', () => {
    expect(errorMessage(validation({ path: 'body.name', message: 'Name is required' }))).toBe(
      'Name is required',
    );
    expect(errorMessage(refusal('querystring._sort: Unknown sort field: colour', []))).toBe(
      'Unknown sort field: colour',
    );
    expect(errorMessage(refusal('params.id: Invalid UUID'))).toBe('ID: Invalid UUID');
    expect(errorMessage(refusal('query.page: must be at least 1'))).toBe('Page: must be at least 1');
    expect(errorMessage(refusal('body: Invalid input: expected object'))).toBe(
      'Invalid input: expected object',
    );
  });

  it('names the field in words when the message alone would not say which', () => {
    expect(
      errorMessage(validation({ path: 'body.definition', message: 'Invalid input: expected string' })),
    ).toBe('Definition: Invalid input: expected string');
    expect(errorMessage(validation({ path: 'body.source.url', message: 'must be https' }))).toBe(
      'Source › URL: must be https',
    );
  });

  it("keeps the API's own wording, and a place in a definition", () => {
    expect(errorMessage(refusal('Invalid credentials', undefined, 401))).toBe('Invalid credentials');
    const definition = 'spec.tasks[0].taskSpec (line 12, column 9): steps is required';
    expect(errorMessage(refusal(definition))).toBe(definition);
    // "bodyguard" is not a request location
    expect(errorMessage(refusal('bodyguard: is on duty'))).toBe('bodyguard: is on duty');
  });

  it('falls back to the default message for a failure that is no API error', () => {
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'offline' })).toBe(
      'Something went wrong. Please try again!',
    );
    expect(errorMessage({ status: 502, data: '<html>' })).toBe('Something went wrong. Please try again!');
    expect(errorMessage({ name: 'Error', message: 'boom' })).toBe('Something went wrong. Please try again!');
    expect(errorMessage(undefined)).toBe('Something went wrong. Please try again!');
    expect(errorStatus(refusal('x', [], 409))).toBe(409);
    expect(errorStatus({ status: 'FETCH_ERROR', error: 'offline' })).toBeUndefined();
  });
});

describe('fieldLabel and describeDetail', () => {
  it('put a request path in words', () => {
    expect(fieldLabel('body.rollbackPipelineId')).toBe('Rollback pipeline ID');
    expect(fieldLabel('body.groupRoles.0.workspaceId')).toBe('Group roles 1 › workspace ID');
    expect(fieldLabel('querystring._sort')).toBe('Sort');
    expect(fieldLabel('/name')).toBe('Name');
  });

  it('give the message alone when it names its field', () => {
    expect(describeDetail({ path: 'body.name', message: 'Name is required' })).toBe('Name is required');
    expect(describeDetail({ path: 'body.pipelineId', message: 'no such pipeline in this workspace' })).toBe(
      'No such pipeline in this workspace',
    );
    expect(describeDetail({ path: 'code', message: 'Too many wrong codes' })).toBe('Too many wrong codes');
  });

  it('lead with the field in words when the message does not name it', () => {
    expect(describeDetail({ path: 'body.definition', message: 'must be a string' })).toBe(
      'Definition: must be a string',
    );
    expect(describeDetail({ path: 'environmentId', message: 'is not bound' })).toBe(
      'Environment ID: is not bound',
    );
    expect(describeDetail({ path: 'spec.tasks (line 3, column 3)', message: 'needs a task' })).toBe(
      'spec.tasks (line 3, column 3): needs a task',
    );
  });
});

describe('fieldErrors', () => {
  it('keys each message by the field its path names, whatever the request location', () => {
    const error = validation(
      { path: 'body.name', message: 'Name is required' },
      { path: 'body.name', message: 'Name is too long' },
      { path: 'querystring.page', message: 'must be a number' },
      { path: 'body.source.url', message: 'Unreachable' },
    );
    expect(fieldErrors(error)).toEqual({
      name: 'Name is required',
      page: 'must be a number',
      source: 'Unreachable',
    });
    expect(fieldErrors(error, ['url'])).toMatchObject({ url: 'Unreachable' });
  });
});

describe('formErrors', () => {
  it('shows no alert when every detail is under a field of the form', () => {
    expect(formErrors(validation({ path: 'body.name', message: 'Name is required' }), ['name'])).toEqual({
      fields: { name: 'Name is required' },
      message: null,
    });
    const two = validation(
      { path: 'body.name', message: 'Name is required' },
      { path: 'body.description', message: 'Too long' },
    );
    expect(formErrors(two, ['name', 'description'])).toEqual({
      fields: { name: 'Name is required', description: 'Too long' },
      message: null,
    });
    // without a list of fields, every detail goes under its field
    expect(formErrors(two)).toEqual({
      fields: { name: 'Name is required', description: 'Too long' },
      message: null,
    });
  });

  it('says, in words, the details no field of the form shows', () => {
    const error = validation(
      { path: 'body.name', message: 'Name is required' },
      { path: 'body.definition', message: 'must be a string' },
      { path: 'body.rollbackPipelineId', message: 'no such pipeline in this workspace' },
    );
    const { fields, message } = formErrors(error, ['name']);
    expect(fields).toEqual({ name: 'Name is required' });
    expect(message).toBe('Definition: must be a string; No such pipeline in this workspace');
  });

  it('says the detail itself when the field it names is not on the form', () => {
    const error = validation({ path: 'body.name', message: 'Name is required' });
    expect(formErrors(error, ['url'])).toEqual({ fields: {}, message: 'Name is required' });
  });

  it('lists at most three details, and repeats none', () => {
    const error = validation(
      ...['alpha', 'beta', 'gamma', 'delta'].map((k) => ({ path: `body.${k}`, message: `${k} is wrong` })),
      { path: 'body.alpha', message: 'alpha is wrong' },
    );
    expect(formErrors(error, ['name']).message).toBe('Alpha is wrong; Beta is wrong; Gamma is wrong; …');
  });

  it("keeps the API's own sentence whole, and leaves it out when a field already says it", () => {
    const wrong = refusal('Current password is incorrect', [
      { path: 'currentPassword', message: 'Current password is incorrect' },
    ]);
    expect(formErrors(wrong, ['currentPassword']).message).toBeNull();
    expect(formErrors(wrong, ['newPassword'])).toEqual({
      fields: {},
      message: 'Current password is incorrect',
    });
    const expired = refusal('This reset link is invalid or has expired', [
      { path: 'token', message: 'This reset link is invalid or has expired' },
    ]);
    expect(formErrors(expired, ['password']).message).toBe('This reset link is invalid or has expired');
    const summary = refusal('Validation failed', [{ path: '/elsewhere', message: 'Not on this form' }]);
    expect(formErrors(summary, ['name'])).toEqual({ fields: {}, message: 'Validation failed' });
  });

  it('shows the message of a failure without details, and the default for any other failure', () => {
    expect(formErrors(refusal('Name is already taken', undefined, 409), ['name'])).toEqual({
      fields: {},
      message: 'Name is already taken',
    });
    expect(formErrors({ status: 'FETCH_ERROR', error: 'offline' }, ['name'])).toEqual({
      fields: {},
      message: 'Something went wrong. Please try again!',
    });
  });

  it('never shows a request path', () => {
    const cases: ApiError[] = [
      validation({ path: 'body.name', message: 'Name is required' }),
      validation({ path: 'body.definition', message: 'Invalid input' }, { path: 'body.name', message: 'x' }),
      validation({ path: 'querystring.limit', message: 'Too big' }),
      validation({ path: 'params.id', message: 'Invalid UUID' }),
      refusal('body.groupRoles.0.workspaceId: No such workspace', [
        { path: 'body.groupRoles.0.workspaceId', message: 'No such workspace' },
        { path: 'body.groupRoles.1.workspaceRole', message: 'No such role' },
      ]),
    ];
    for (const error of cases) {
      for (const known of [undefined, ['name'], ['description']]) {
        const { message } = formErrors(error, known);
        expect(message ?? '').not.toMatch(RAW_PATH);
      }
      expect(errorMessage(error)).not.toMatch(RAW_PATH);
    }
  });
});
