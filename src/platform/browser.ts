/** Browsers: DuckDB-WASM's worker bundle; there are no paths, only Files, Blobs and bytes. */
import { startBrowserKernelWorker } from '../kernels/worker-browser.js';
import { openDuckDBBrowser, type BrowserDuckDBOptions } from '../store/duckdb-browser.js';
import type { Platform } from './platform.js';
import { localParquetDecoder } from '../ingest/files/parquet.js';

/** The browser platform, with DuckDB-WASM's bundle taken from where `duckdb` says it is hosted. */
export function createBrowserPlatform(duckdb: BrowserDuckDBOptions = {}): Platform {
  return {
    openSql: () => openDuckDBBrowser(duckdb),
    startKernels: () => startBrowserKernelWorker(),
    parquetDecoder: () => localParquetDecoder(),
    async expandPath(path) {
      throw new Error(`cannot load the path ${path} in a browser: pass File, Blob or Uint8Array objects`);
    },
  };
}

/** The browser platform with the default bundle location (`import.meta.resolve`, an import map). */
export const browserPlatform: Platform = createBrowserPlatform();
