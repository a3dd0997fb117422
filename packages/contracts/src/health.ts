import { z } from 'zod';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const readinessCheckSchema = z.object({
  ok: z.boolean(),
  detail: z.string(),
});

export const readyResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.object({
    driver: z.enum(['pglite', 'postgres']),
    reachable: z.boolean(),
    migrationsApplied: z.number().int(),
    migrationsExpected: z.number().int(),
  }),
  instance: z.object({ id: z.string(), firstStartedAt: z.string(), starts: z.number().int() }).nullable(),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;
