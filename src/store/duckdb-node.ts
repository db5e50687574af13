/**
 * DuckDB-WASM in Node: the blocking build in a worker thread of its own (workers/duckdb.worker.ts),
 * reached over Comlink, as the browser build runs in its Web Worker. Statements cost that thread,
 * not the one that answers: a query from memory never waits behind a store write, and the load's
 * decoding runs while the database inserts.
 */
import * as Comlink from 'comlink';
import { Worker } from 'node:worker_threads';
import type { DuckDBWorkerApi } from '../../workers/duckdb.worker.js';
import { nodeEndpoint } from '../platform/node-endpoint.js';
import { compiledWorkerUrl } from '../platform/node-worker-url.js';
import { handOver, sqlConnection, type SqlConnection } from './sql-connection.js';

/** Options of `openDuckDBNode`. */
export interface NodeDuckDBOptions {
  /** Log DuckDB-WASM events to the console (default false). */
  readonly log?: boolean;
}

/** Opens an in-memory DuckDB-WASM database in a worker thread, with extension autoloading off. */
export async function openDuckDBNode(options: NodeDuckDBOptions = {}): Promise<SqlConnection> {
  const worker = new Worker(compiledWorkerUrl('duckdb.worker.js', import.meta.url));
  // a call pending when the thread dies would wait forever: every call races the thread's end
  const died = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the DuckDB-WASM worker exited with code ${code}`)));
  });
  died.catch(() => undefined);
  const api = Comlink.wrap<DuckDBWorkerApi>(nodeEndpoint(worker));
  const call = <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, died]);
  try {
    await call(api.open(options.log ?? false));
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return sqlConnection({
    query: (sql) => call(api.query(sql)),
    insertIPCStream: (table, ipc) => {
      const bytes = handOver(ipc);
      return call(api.insertIPCStream(table, Comlink.transfer(bytes, [bytes.buffer])));
    },
    close: async () => {
      await call(api.close()).catch(() => undefined);
      await worker.terminate();
    },
  });
}
