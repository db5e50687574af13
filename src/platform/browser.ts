/** Browsers: DuckDB-WASM's worker bundle; there are no paths, only Files, Blobs and bytes. */
import { startBrowserKernelWorker } from '../kernels/worker-browser.js';
import { openDuckDBBrowser, type BrowserDuckDBOptions } from '../store/duckdb-browser.js';
import type { ParquetWasmSource } from '../ingest/files/parquet-wasm.js';
import type { Platform } from './platform.js';

/**
 * The browser platform, with DuckDB-WASM's bundle taken from where `duckdb` says it is hosted and
 * parquet-wasm's wasm (which the kernel worker decodes with) from `parquetWasm`.
 */
export function createBrowserPlatform(duckdb: BrowserDuckDBOptions = {}, parquetWasm?: ParquetWasmSource): Platform {
  return {
    openSql: () => openDuckDBBrowser(duckdb),
    startKernels: () => startBrowserKernelWorker(undefined, parquetWasm),
    async expandPath(path) {
      throw new Error(`cannot load the path ${path} in a browser: pass File, Blob or Uint8Array objects`);
    },
  };
}

/** The browser platform with the default bundle location (`import.meta.resolve`, an import map). */
export const browserPlatform: Platform = createBrowserPlatform();
