import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type { PGliteOptions } from '@electric-sql/pglite';

type WasmModule = NonNullable<PGliteOptions['wasmModule']>;
/** The global the server's Node-only type library does not declare. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Buffer): Promise<WasmModule> } })
  .WebAssembly;

/**
 * PGlite's WebAssembly build starts PostgreSQL with `-c shared_buffers=128MB` baked into its
 * command line. In one Node process that buffer pool alone is most of the server's idle memory,
 * and an embedded, single-user database gains nothing from it: its files sit in the operating
 * system's page cache anyway. So the module is compiled once per process from the package's own
 * `pglite.wasm` with that one setting rewritten in place (same bytes, shorter C string), and
 * every PGlite instance of the process shares the compiled module.
 *
 * The module is compiled by V8's baseline WebAssembly compiler only (Liftoff) unless the
 * optimising compiler is asked for: measured on this server, baseline-only saves about 70 MB of
 * machine code for some 8% on point queries and 30–40% on long scans. Those flags touch only
 * WebAssembly, and PGlite is the one WebAssembly module the server runs.
 *
 * When a PGlite release no longer carries the exact setting, the stock module is used unchanged:
 * the database still works, only with its own buffer size.
 *
 * See docs/decisions/010-pglite-memory.md.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

const STOCK_SETTING = 'shared_buffers=128MB\0';

export type PgliteCompiler = 'baseline' | 'optimising';

let compiled: Promise<WasmModule | undefined> | undefined;

/** The process's tuned module; the first caller's compiler choice holds for the process. */
export function pgliteWasmModule(compiler: PgliteCompiler = 'baseline'): Promise<WasmModule | undefined> {
  compiled ??= compile(compiler).catch(() => undefined);
  return compiled;
}

/** Rewrites the setting in a copy of the module's bytes; `undefined` when it is not there. */
export function tuneSharedBuffers(bytes: Buffer, size = PGLITE_SHARED_BUFFERS): Buffer | undefined {
  const from = Buffer.from(STOCK_SETTING, 'latin1');
  const at = bytes.indexOf(from);
  if (at < 0 || bytes.indexOf(from, at + 1) >= 0) return undefined;
  const replacement = `shared_buffers=${size}`;
  if (!/^shared_buffers=\d+(kB|MB)$/.test(replacement) || replacement.length >= from.length) {
    throw new Error(`shared_buffers size "${size}" does not fit in place of the stock setting`);
  }
  const copy = Buffer.from(bytes);
  copy.fill(0, at, at + from.length);
  copy.write(replacement, at, 'latin1');
  return copy;
}

async function compile(compiler: PgliteCompiler): Promise<WasmModule | undefined> {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const wasmPath = new URL('pglite.wasm', `file://${entry}`);
  const tuned = tuneSharedBuffers(await readFile(wasmPath));
  if (!tuned) return undefined;
  // Compile functions when first called: most of PostgreSQL (initdb, replication, tools) never
  // runs in an embedded server, and its machine code would otherwise sit in memory.
  v8.setFlagsFromString('--wasm-lazy-compilation');
  if (compiler === 'baseline') v8.setFlagsFromString('--liftoff-only');
  return wasm.compile(tuned);
}
