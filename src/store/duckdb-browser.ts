/**
 * DuckDB-WASM in a browser: the async build, with the database in a Web Worker made from the
 * `browser-eh` worker bundle. Every call is a message round trip to that worker.
 *
 * The bundle is two files of `@duckdb/duckdb-wasm/dist/` that the page must serve:
 * `duckdb-browser-eh.worker.js` and `duckdb-eh.wasm`. With a bundler, import their URLs (Vite:
 * `import workerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url'`) and pass
 * them; without one, they are found through `import.meta.resolve` (an import map naming the package).
 */
import { AsyncDuckDB, ConsoleLogger, VoidLogger } from '@duckdb/duckdb-wasm';
import { handOver, OFFLINE_SETTINGS, sqlConnection, type SqlConnection } from './sql-connection.js';

/** Where the page hosts DuckDB-WASM's browser bundle. */
export interface BrowserDuckDBOptions {
  /** A worker already running the DuckDB-WASM worker bundle (`workerUrl` is then ignored); closed with the engine. */
  readonly worker?: Worker;
  /** URL of `duckdb-browser-eh.worker.js`; a cross-origin URL is started through a same-origin blob. */
  readonly workerUrl?: string | URL;
  /** URL of `duckdb-eh.wasm`. */
  readonly wasmUrl?: string | URL;
  /** Log DuckDB-WASM events to the console (default false). */
  readonly log?: boolean;
}

function packageFile(file: string, option: string): string {
  const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  try {
    if (resolve) return resolve(`@duckdb/duckdb-wasm/dist/${file}`);
  } catch {
    // no import map names the package (bundled pages): fall through to the explicit error
  }
  throw new Error(`cannot locate @duckdb/duckdb-wasm/dist/${file}: pass its URL as the duckdb option ${option}`);
}

/** Absolute form of a URL relative to the page (workers and the wasm fetch resolve against it). */
function absolute(url: string | URL): URL {
  return new URL(String(url), globalThis.location?.href);
}

/**
 * `new Worker` only takes same-origin scripts: a worker bundle on a CDN is started from a blob
 * that imports it (the classic worker bundle uses `importScripts`).
 */
function startWorker(url: URL): Worker {
  if (globalThis.location === undefined || url.origin === globalThis.location.origin || url.protocol === 'blob:') {
    return new Worker(url);
  }
  const blob = new Blob([`importScripts(${JSON.stringify(url.href)});`], { type: 'text/javascript' });
  const blobUrl = URL.createObjectURL(blob);
  try {
    return new Worker(blobUrl);
  } finally {
    URL.revokeObjectURL(blobUrl);
  }
}

/** Opens an in-memory DuckDB-WASM database in a Web Worker, with extension autoloading off. */
export async function openDuckDBBrowser(options: BrowserDuckDBOptions = {}): Promise<SqlConnection> {
  const wasmUrl = absolute(options.wasmUrl ?? packageFile('duckdb-eh.wasm', 'wasmUrl'));
  const worker = options.worker ?? startWorker(absolute(options.workerUrl ?? packageFile('duckdb-browser-eh.worker.js', 'workerUrl')));
  const db = new AsyncDuckDB(options.log ? new ConsoleLogger() : new VoidLogger(), worker);
  try {
    await db.instantiate(wasmUrl.href);
    await db.open({});
  } catch (error) {
    await db.terminate();
    throw error;
  }
  const connection = await db.connect();
  const id = connection.useUnsafe((_, conn) => conn);
  const driver = {
    query: (sql: string) => db.runQuery(id, sql),
    // the worker call transfers the bytes' whole ArrayBuffer
    insertIPCStream: (table: string, ipc: Uint8Array) => db.insertArrowFromIPCStream(id, handOver(ipc), { name: table, create: false }),
    close: async () => {
      await connection.close();
      await db.terminate();
    },
  };
  await driver.query(OFFLINE_SETTINGS);
  return sqlConnection(driver);
}
