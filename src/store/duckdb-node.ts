/**
 * DuckDB-WASM in Node: the blocking build (`eh` bundle) in this thread. Opening costs 1-2 s and
 * ~250 MB; statements then run synchronously (about 1 ms for a trivial query).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConsoleLogger, NODE_RUNTIME, VoidLogger, createDuckDB } from '@duckdb/duckdb-wasm/blocking';
import { OFFLINE_SETTINGS, sqlConnection, type SqlConnection } from './sql-connection.js';

/** Options of `openDuckDBNode`. */
export interface NodeDuckDBOptions {
  /** Log DuckDB-WASM events to the console (default false). */
  readonly log?: boolean;
}

/** The installed package's dist folder, where the wasm modules live. */
function distFolder(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
}

/** Opens an in-memory DuckDB-WASM database in this thread, with extension autoloading off. */
export async function openDuckDBNode(options: NodeDuckDBOptions = {}): Promise<SqlConnection> {
  const dist = distFolder();
  const bundles = {
    mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
  };
  const db = await createDuckDB(bundles, options.log ? new ConsoleLogger() : new VoidLogger(), NODE_RUNTIME);
  await db.instantiate(() => {});
  db.open({});
  const connection = db.connect();
  const id = connection.useUnsafe((_, conn) => conn);
  const driver = {
    query: async (sql: string) => db.runQuery(id, sql),
    insertIPCStream: async (table: string, ipc: Uint8Array) => db.insertArrowFromIPCStream(id, ipc, { name: table, create: false }),
    close: async () => connection.close(),
  };
  await driver.query(OFFLINE_SETTINGS);
  return sqlConnection(driver);
}
