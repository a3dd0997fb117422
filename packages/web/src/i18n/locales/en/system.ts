/** English for src/features/system; assembled in ../en.ts. */

export const status = {
  label: 'System status',
  ready: 'Server {{version}} · {{driver}} · ready',
  notReady: 'Server {{version}} · {{driver}} · not ready',
  unreachable: 'Server unreachable ({{status}})',
  checking: 'Checking server…',
  drivers: { pglite: 'embedded database', postgres: 'PostgreSQL' },
} as const;
