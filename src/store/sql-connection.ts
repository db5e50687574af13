/**
 * The store's seam to a database: one connection, a handful of calls, bytes in and out.
 * Platform adapters (`duckdb-node.ts`, `duckdb-browser.ts`) implement the small `DuckDBDriver`
 * and `sqlConnection` turns it into a `SqlConnection`; everything else is platform-independent.
 */
import { assertCompleteIPCStream, ipcStream, rowsFromIPC } from './ipc.js';

/** A connection to a SQL database that speaks Arrow IPC. */
export interface SqlConnection {
  /** Runs one statement (or several separated by `;`) and discards any result. */
  run(sql: string): Promise<void>;
  /** Small results as plain objects; BIGINT/UBIGINT come back as bigint, exact. */
  queryRows(sql: string): Promise<Record<string, unknown>[]>;
  /** The result as Arrow IPC stream bytes. */
  queryIPC(sql: string): Promise<Uint8Array>;
  /**
   * Appends one complete Arrow IPC stream to an existing table. Columns are matched by position,
   * not by name (conform the table first: `conformToSql`), and the stream must hold at least one record batch.
   * The bytes are handed over: the database's thread may take their buffer (see `handOver`).
   */
  insertIPC(table: string, ipc: Uint8Array): Promise<void>;
  /** Closes the connection and releases the database. Later calls reject. */
  close(): Promise<void>;
}

/** What a platform adapter provides: DuckDB-WASM's calls on one connection. */
export interface DuckDBDriver {
  /** Runs SQL and returns the result as Arrow IPC bytes (file or stream format). */
  query(sql: string): Promise<Uint8Array>;
  /** DuckDB-WASM's `insertArrowFromIPCStream` into an existing table; `ipc` is handed over (see `handOver`). */
  insertIPCStream(table: string, ipc: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** DuckDB settings applied right after open: offline, extension autoload would hang or fail. */
export const OFFLINE_SETTINGS = 'SET autoinstall_known_extensions = false; SET autoload_known_extensions = false';

/**
 * Bytes to transfer to the database's thread: `bytes` itself when it spans its whole buffer (a
 * fresh IPC stream: transferred, not copied, and detached here afterwards), else a copy (a view
 * into a larger buffer that others may hold).
 */
export function handOver(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
}

/** A `SqlConnection` over a driver, with the IPC framing guard in front of inserts. */
export function sqlConnection(driver: DuckDBDriver): SqlConnection {
  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('SQL connection is closed');
  };
  return {
    async run(sql) {
      open();
      await driver.query(sql);
    },
    async queryRows(sql) {
      open();
      return rowsFromIPC(await driver.query(sql));
    },
    async queryIPC(sql) {
      open();
      return ipcStream(await driver.query(sql));
    },
    async insertIPC(table, ipc) {
      open();
      assertCompleteIPCStream(ipc);
      await driver.insertIPCStream(table, ipc);
    },
    async close() {
      if (closed) return;
      closed = true;
      await driver.close();
    },
  };
}
