/**
 * DuckDB-WASM's blocking build (`eh` bundle) in the calling thread: what the store worker
 * (workers/duckdb.worker.ts) runs. Opening costs 1-2 s and ~250 MB; statements then run
 * synchronously (about 1 ms for a trivial query), which is why they run in that worker and not on
 * the thread that answers.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConsoleLogger, NODE_RUNTIME, VoidLogger, createDuckDB } from '@duckdb/duckdb-wasm/blocking';
import { OFFLINE_SETTINGS, type DuckDBDriver } from './sql-connection.js';

/** The installed package's dist folder, where the wasm modules live. */
function distFolder(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
}

/** Opens an in-memory DuckDB-WASM database in this thread, with extension autoloading off. */
export async function openDuckDBInThread(log = false): Promise<DuckDBDriver> {
  const dist = distFolder();
  const bundles = {
    mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
  };
  const db = await createDuckDB(bundles, log ? new ConsoleLogger() : new VoidLogger(), NODE_RUNTIME);
  await db.instantiate(() => {});
  db.open({});
  const connection = db.connect();
  const id = connection.useUnsafe((_, conn) => conn);
  const driver: DuckDBDriver = {
    query: async (sql: string) => db.runQuery(id, sql),
    insertIPCStream: async (table: string, ipc: Uint8Array) => db.insertArrowFromIPCStream(id, ipc, { name: table, create: false }),
    close: async () => connection.close(),
  };
  await driver.query(OFFLINE_SETTINGS);
  return driver;
}
