import { z } from 'zod';

/** Paging constants (spec §9) and the list query convention (_start, _end, _sort, _order). */
export const PAGING = {
  repositoryProviderList: 12,
  repositoryListDefaultEnd: 10,
  serviceTypeListEnd: 100,
  /** our ceiling for any single page */
  maxPageSize: 500,
} as const;

/** A list query's `_order`, in either case, ASC or DESC; `first` when it is left out. */
export const sortOrderSchema = (first: 'ASC' | 'DESC') =>
  z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(['ASC', 'DESC']))
    .default(first);

/** A list query's page: _end not before _start, and at most PAGING.maxPageSize rows. */
export const pageRules = <T extends z.ZodType<{ _start: number; _end: number }>>(schema: T) =>
  schema
    .refine((q) => q._end >= q._start, { message: '_end must not be less than _start', path: ['_end'] })
    .refine((q) => q._end - q._start <= PAGING.maxPageSize, {
      message: `at most ${PAGING.maxPageSize} rows per page`,
      path: ['_end'],
    });

export const listQuerySchema = pageRules(
  z.object({
    _start: z.coerce.number().int().min(0).default(0),
    _end: z.coerce.number().int().min(0).default(PAGING.repositoryListDefaultEnd),
    _sort: z.string().max(64).default('id'),
    _order: sortOrderSchema('ASC'),
  }),
);
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Header carrying the total row count of a list answer. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
