/** Is this a PostgreSQL unique-constraint violation (23505), however the driver wrapped it? */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * The error PostgreSQL raises when a unique index refuses a row (SQLSTATE 23505, with the
 * index's name): what an in-memory fake store throws where its SQL twin's index would.
 */
export function uniqueViolation(constraint: string): Error {
  return Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), {
    code: '23505',
    constraint,
  });
}
