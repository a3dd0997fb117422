/**
 * Typed errors thrown anywhere and mapped to HTTP once, in the error handler
 * (Backstage / Unleash style). Business code never builds HTTP replies.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly details: Array<{ path: string; message: string }> | undefined;
  constructor(statusCode: number, message: string, details?: Array<{ path: string; message: string }>) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.details = details;
  }
}

export class InputError extends AppError {
  constructor(message: string, details?: Array<{ path: string; message: string }>) {
    super(400, message, details);
  }
}

export class NotAuthenticatedError extends AppError {
  constructor(message = 'Not authenticated') {
    super(401, message);
  }
}

export class NotAllowedError extends AppError {
  constructor(message = 'Action not allowed contact Admin') {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 429: the error handler sends Retry-After with these whole seconds. */
export class TooManyRequestsError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

/** A bad setting at start-up: the process exits non-zero with this message. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}
