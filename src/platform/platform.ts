/** What differs between Node and browsers, injected into the engine by the entry files. */
import type { PathExpander } from '../ingest/sources.js';
import type { KernelClient } from '../kernels/client.js';
import type { SqlConnection } from '../store/sql-connection.js';

export interface Platform {
  /** Opens DuckDB-WASM (the blocking bundle in Node, the worker bundle in a browser). */
  openSql(): Promise<SqlConnection>;
  /** Lists the files of a path (a folder: every file under it, sorted by name, each marked with the folder). */
  expandPath: PathExpander;
  /** Starts a kernel worker (worker_threads in Node, a module Web Worker in a browser). */
  startKernels(): Promise<KernelClient>;
}
