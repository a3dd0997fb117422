/**
 * A patch the apiserver cannot apply. `code` is the HTTP status it answers with: 400 for a
 * malformed strategic merge patch directive, 422 for a JSON patch that does not apply (as
 * `NewGenericServerResponse(422, …)`) and for lists of lists, 500 for other strategic merge
 * errors (the apiserver passes them through as internal errors). `message` is the text the
 * apiserver puts in the Status.
 */
export class PatchError extends Error {
  constructor(
    message: string,
    readonly code: 400 | 415 | 422 | 500 = 422,
  ) {
    super(message);
    this.name = 'PatchError';
  }
}
