/**
 * Loading parquet-wasm 0.8 on every platform, once.
 *
 * - Node: `parquet-wasm/node` is a CommonJS build that reads and compiles its .wasm file synchronously
 *   when imported (require('fs') inside the package); nothing to initialise.
 * - Browsers, workers, bundlers: `parquet-wasm/esm` must be initialised with its default export before
 *   use. By default it fetches `parquet_wasm_bg.wasm` next to the module (`new URL(..., import.meta.url)`,
 *   which bundlers rewrite); `configureParquetWasm({ wasm })` passes the bytes, a compiled
 *   WebAssembly.Module, a URL or a Response instead (offline pages, CSP, custom hosting). In Node the
 *   ESM build cannot fetch a file: URL, so there it needs the bytes.
 */
import type * as ParquetWasmModule from 'parquet-wasm/esm';

/** The parquet-wasm API chainlens uses (the same in the node and esm builds). */
export type ParquetWasm = Pick<typeof ParquetWasmModule,
  'ParquetFile' | 'Table' | 'WriterPropertiesBuilder' | 'Compression' | 'transformParquetStream' | 'writeParquet' | 'readParquet' | 'wasmMemory'>;

/** What `parquet-wasm/esm`'s init accepts: wasm bytes, a compiled module, or where to fetch it. */
export type ParquetWasmSource = BufferSource | WebAssembly.Module | URL | string | Response | Promise<Response>;

let loading: Promise<ParquetWasm> | undefined;
let configured: { build?: 'node' | 'esm'; wasm?: ParquetWasmSource } = {};

/**
 * Chooses how parquet-wasm is loaded, before its first use: `build` forces the node or esm build;
 * `wasm` is what the esm build is initialised with.
 */
export function configureParquetWasm(options: { build?: 'node' | 'esm'; wasm?: ParquetWasmSource }): void {
  configured = { ...options };
  loading = undefined;
}

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

async function loadEsm(): Promise<ParquetWasm> {
  const module = await import('parquet-wasm/esm');
  await module.default(configured.wasm === undefined ? undefined : { module_or_path: configured.wasm });
  return module;
}

/**
 * The Node build's specifier, out of bundlers' sight: a literal would make them bundle that CommonJS
 * build (and its `fs`) into every browser page, where it is never loaded.
 */
const NODE_BUILD = 'parquet-wasm/node';

/** The forms of a ParquetWasmSource that can be posted to a worker (a URL as its text, a Response as its bytes). */
export type PostableParquetWasm = BufferSource | WebAssembly.Module | string;

/** `source` in a form that can be posted to a worker. */
export async function postableParquetWasm(source: ParquetWasmSource): Promise<PostableParquetWasm> {
  if (source instanceof URL) return source.href;
  if (typeof Response !== 'undefined' && (source instanceof Response || source instanceof Promise)) {
    return new Uint8Array(await (await source).arrayBuffer());
  }
  return source as PostableParquetWasm;
}

/** parquet-wasm, loaded and initialised (memoised). */
export function loadParquetWasm(): Promise<ParquetWasm> {
  const build = configured.build ?? (isNode() ? 'node' : 'esm');
  loading ??= (build === 'node' ? import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_BUILD) as Promise<ParquetWasm> : loadEsm());
  return loading;
}
