/**
 * The store's database thread (Node): DuckDB-WASM's blocking build, driven over Comlink by
 * src/store/duckdb-node.ts. Statements block this thread, never the one that answers queries.
 */
import * as Comlink from 'comlink';
import { parentPort } from 'node:worker_threads';
import { nodeEndpoint } from '../src/platform/node-endpoint.js';
import { openDuckDBInThread } from '../src/store/duckdb-node-thread.js';
import type { DuckDBDriver } from '../src/store/sql-connection.js';

/** What the worker exposes: the driver's calls, after `open`. */
export interface DuckDBWorkerApi {
  open(log: boolean): Promise<void>;
  query(sql: string): Promise<Uint8Array>;
  insertIPCStream(table: string, ipc: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

let driver: DuckDBDriver | undefined;
const opened = (): DuckDBDriver => {
  if (!driver) throw new Error('the database is not open');
  return driver;
};

const api: DuckDBWorkerApi = {
  async open(log) {
    driver ??= await openDuckDBInThread(log);
  },
  async query(sql) {
    const bytes = await opened().query(sql);
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]); // a fresh copy out of the wasm heap
  },
  insertIPCStream: (table, ipc) => opened().insertIPCStream(table, ipc),
  async close() {
    await driver?.close();
    driver = undefined;
  },
};

Comlink.expose(api, nodeEndpoint(parentPort!));
