/** Browsers: DuckDB-WASM's worker bundle; there are no paths, only Files, Blobs and bytes. */
import { openDuckDBBrowser } from '../store/duckdb-browser.js';
import type { Platform } from './platform.js';

export const browserPlatform: Platform = {
  openSql: () => openDuckDBBrowser(),
  async expandPath(path) {
    throw new Error(`cannot load the path ${path} in a browser: pass File, Blob or Uint8Array objects`);
  },
};
