/**
 * DuckDB-WASM in a browser: the async build, with the database in a Web Worker made from the
 * `browser-eh` worker bundle. Every call is a message round trip to that worker.
 */
import { AsyncDuckDB, ConsoleLogger, VoidLogger } from '@duckdb/duckdb-wasm';
import { OFFLINE_SETTINGS, sqlConnection, type SqlConnection } from './sql-connection.js';

/** Options of `openDuckDBBrowser`. URLs default to the installed package's files. */
export interface BrowserDuckDBOptions {
  /** A worker already running the DuckDB-WASM worker bundle (e.g. one made from a CDN via a blob). */
  readonly worker?: Worker;
  /** URL of `duckdb-browser-eh.worker.js`; must be same-origin to be started with `new Worker`. */
  readonly workerUrl?: string | URL;
  /** URL of `duckdb-eh.wasm`. */
  readonly wasmUrl?: string | URL;
  /** Log DuckDB-WASM events to the console (default false). */
  readonly log?: boolean;
}

function packageFile(file: string): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  if (!resolve) throw new Error(`cannot locate @duckdb/duckdb-wasm/dist/${file}: pass its URL in the options`);
  return resolve(`@duckdb/duckdb-wasm/dist/${file}`);
}

/** Opens an in-memory DuckDB-WASM database in a Web Worker, with extension autoloading off. */
export async function openDuckDBBrowser(options: BrowserDuckDBOptions = {}): Promise<SqlConnection> {
  const worker = options.worker ?? new Worker(String(options.workerUrl ?? packageFile('duckdb-browser-eh.worker.js')));
  const db = new AsyncDuckDB(options.log ? new ConsoleLogger() : new VoidLogger(), worker);
  try {
    await db.instantiate(String(options.wasmUrl ?? packageFile('duckdb-eh.wasm')));
    await db.open({});
  } catch (error) {
    await db.terminate();
    throw error;
  }
  const connection = await db.connect();
  const id = connection.useUnsafe((_, conn) => conn);
  const driver = {
    query: (sql: string) => db.runQuery(id, sql),
    // The worker call transfers the bytes' whole ArrayBuffer: send a copy, not the caller's buffer.
    insertIPCStream: (table: string, ipc: Uint8Array) => db.insertArrowFromIPCStream(id, ipc.slice(), { name: table, create: false }),
    close: async () => {
      await connection.close();
      await db.terminate();
    },
  };
  await driver.query(OFFLINE_SETTINGS);
  return sqlConnection(driver);
}
