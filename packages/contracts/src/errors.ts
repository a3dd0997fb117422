import { z } from 'zod';

/** Every error the API answers has this shape (ARCHITECTURE.md, Conventions). */
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  requestId: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Fetch-layer statuses the web app surfaces (spec §8), besides the HTTP status itself. */
export const FETCH_ERROR = 'FETCH_ERROR';
export const TIMEOUT_ERROR = 'TIMEOUT_ERROR';
export const PARSING_ERROR = 'PARSING_ERROR';
export const fetchErrorStatuses = [FETCH_ERROR, TIMEOUT_ERROR, PARSING_ERROR] as const;
export type FetchErrorStatus = (typeof fetchErrorStatuses)[number];

/** Success is any 2xx status (spec §8). */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
