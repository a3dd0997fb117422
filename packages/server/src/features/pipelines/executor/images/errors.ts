/** Why an image could not be had; the executor shows the message as the step's failure reason. */
export type ImagePullErrorCode =
  | 'INVALID_REFERENCE'
  | 'REGISTRY'
  | 'UNREACHABLE'
  | 'DIGEST_MISMATCH'
  | 'UNSUPPORTED'
  | 'PLATFORM'
  | 'LAYER'
  | 'CANCELLED';

/**
 * An image that cannot be pulled. The message names the image as the step gave it and the
 * registry's answer, e.g. `image "busybox:1.36" could not be pulled: registry-1.docker.io answered
 * 404 MANIFEST_UNKNOWN manifest unknown`. It is meant to be shown as it is, without a stack.
 */
export class ImagePullError extends Error {
  override name = 'ImagePullError';
  readonly code: ImagePullErrorCode;
  readonly reference: string;
  /** The registry's HTTP status, when the registry answered. */
  readonly status: number | undefined;

  constructor(
    reference: string,
    reason: string,
    options: { code: ImagePullErrorCode; status?: number; cause?: unknown },
  ) {
    super(`image "${reference}" could not be pulled: ${reason}`, { cause: options.cause });
    this.code = options.code;
    this.reference = reference;
    this.status = options.status;
  }
}

/**
 * A failure inside the pull that does not know the image's name yet (a layer, a blob, a request);
 * ImageStore turns it into an ImagePullError naming the image.
 */
export class PullFailure extends Error {
  readonly code: ImagePullErrorCode;
  readonly status: number | undefined;

  constructor(reason: string, code: ImagePullErrorCode, options: { status?: number; cause?: unknown } = {}) {
    super(reason, { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

/** Any failure as an ImagePullError for `reference` (an ImagePullError passes unchanged). */
export function toImagePullError(reference: string, error: unknown): ImagePullError {
  if (error instanceof ImagePullError) return error;
  if (error instanceof PullFailure) {
    return new ImagePullError(reference, error.message, {
      code: error.code,
      status: error.status,
      cause: error.cause,
    });
  }
  const err = error as NodeJS.ErrnoException;
  if (err?.name === 'AbortError') {
    return new ImagePullError(reference, 'the pull was cancelled', { code: 'CANCELLED', cause: error });
  }
  const detail = err?.code ? `${err.code} ${err.message}` : String(err?.message ?? error);
  return new ImagePullError(reference, detail, { code: 'LAYER', cause: error });
}
