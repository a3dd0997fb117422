import { z } from 'zod';

/** Paging constants (spec §9) and the list query convention (_start, _end, _sort, _order). */
export const PAGING = {
  repositoryProviderList: 12,
  repositoryListDefaultEnd: 10,
  serviceTypeListEnd: 100,
  /** our ceiling for any single page */
  maxPageSize: 500,
} as const;

export const listQuerySchema = z
  .object({
    _start: z.coerce.number().int().min(0).default(0),
    _end: z.coerce.number().int().min(0).default(PAGING.repositoryListDefaultEnd),
    _sort: z.string().max(64).default('id'),
    _order: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(['ASC', 'DESC']))
      .default('ASC'),
  })
  .refine((q) => q._end >= q._start, { message: '_end must not be less than _start', path: ['_end'] })
  .refine((q) => q._end - q._start <= PAGING.maxPageSize, {
    message: `at most ${PAGING.maxPageSize} rows per page`,
    path: ['_end'],
  });
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Header carrying the total row count of a list answer. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
