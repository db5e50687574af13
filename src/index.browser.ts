/** chainlens for browsers: the common surface, with DuckDB-WASM's worker bundle. */
import { createEngineOn, type Engine, type EngineOptions } from './engine.js';
import { configureParquetWasm, type ParquetWasmSource } from './ingest/files/parquet-wasm.js';
import { createBrowserPlatform } from './platform/browser.js';
import type { BrowserDuckDBOptions } from './store/duckdb-browser.js';

export * from './index.js';
export type { BrowserDuckDBOptions } from './store/duckdb-browser.js';
export type { ParquetWasmSource } from './ingest/files/parquet-wasm.js';

/** Options of the browser `createEngine`: the engine's, plus where the page hosts the wasm files. */
export interface BrowserEngineOptions extends EngineOptions {
  /** DuckDB-WASM's worker bundle: `{ workerUrl, wasmUrl }` (or a started `worker`). */
  duckdb?: BrowserDuckDBOptions;
  /** parquet-wasm's `parquet_wasm_bg.wasm` (URL, bytes or module); default: fetched next to its module. */
  parquetWasm?: ParquetWasmSource;
}

/** Creates an engine (browser). */
export function createEngine(options: BrowserEngineOptions = {}): Promise<Engine> {
  const { duckdb, parquetWasm, ...engineOptions } = options;
  // the kernel worker decodes the engine's Parquet files; a reader used without an engine decodes here
  if (parquetWasm !== undefined) configureParquetWasm({ build: 'esm', wasm: parquetWasm });
  return createEngineOn(createBrowserPlatform(duckdb, parquetWasm), engineOptions);
}
