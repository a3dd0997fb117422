import { readFileSync } from 'node:fs';

/** The product version, from the root package.json (same relative place from src/ and dist/). */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
