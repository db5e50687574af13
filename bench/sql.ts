/**
 * The SQL baselines: DuckDB-WASM (the blocking Node build chainlens itself uses as its store) and
 * native DuckDB through @duckdb/node-api (what a user would pick instead), both holding the same
 * columns. DuckDB-WASM gets them as Arrow IPC streams; native DuckDB reads a Parquet file written
 * from the same Arrow table (its Parquet reader is built in).
 *
 * A timed query runs to a materialized result (Arrow IPC bytes from DuckDB-WASM, a materialized
 * result in native DuckDB) without converting it to JavaScript values, which favours the baselines.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { loadParquetWasm } from '../src/ingest/files/parquet-wasm.js';
import { openDuckDBNode } from '../src/store/duckdb-node.js';
import type { SqlConnection } from '../src/store/sql-connection.js';

/** A column of a baseline table. */
export type Column = BigInt64Array | BigUint64Array | Float64Array | Uint32Array | Uint8Array;

/** Both SQL engines, open, with helpers to load the same table into each and to time a query. */
export interface SqlBaselines {
  readonly wasm: SqlConnection;
  readonly native: DuckDBConnection;
  /** Threads native DuckDB runs with (its default: one per core). */
  readonly nativeThreads: number;
  /** Creates (or replaces) `table` with `columns` in both engines. */
  load(table: string, columns: Record<string, Column>): Promise<void>;
  /** Drops `table` in both engines. */
  drop(table: string): Promise<void>;
  /** Runs `sql` in DuckDB-WASM to its Arrow IPC result. */
  wasmQuery(sql: string): Promise<Uint8Array>;
  /** Runs `sql` in native DuckDB to a materialized result. */
  nativeQuery(sql: string): Promise<void>;
  /** Result rows as plain objects from each engine (for cross-checks, not timed). */
  wasmRows(sql: string): Promise<Record<string, unknown>[]>;
  nativeRows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

const SQL_TYPE: [new (...args: never[]) => Column, string][] = [
  [BigInt64Array, 'BIGINT'], [BigUint64Array, 'UBIGINT'], [Float64Array, 'DOUBLE'], [Uint32Array, 'UINTEGER'], [Uint8Array, 'UTINYINT'],
];
const sqlType = (column: Column): string => SQL_TYPE.find(([type]) => column instanceof type)![1];

/** Rows per Arrow IPC stream inserted into DuckDB-WASM. */
const INSERT_ROWS = 1 << 20;

/** Opens DuckDB-WASM and native DuckDB (in memory). */
export async function openSqlBaselines(): Promise<SqlBaselines> {
  const wasm = await openDuckDBNode();
  const instance = await DuckDBInstance.create(':memory:');
  const native = await instance.connect();
  const threads = Number((await native.runAndReadAll("SELECT current_setting('threads') AS t")).getRowObjects()[0]!.t);
  const folder = await mkdtemp(path.join(tmpdir(), 'chainlens-bench-'));
  const parquet = await loadParquetWasm();

  return {
    wasm, native, nativeThreads: threads,
    async load(table, columns) {
      const names = Object.keys(columns);
      const n = columns[names[0]!]!.length;
      const ddl = names.map((name) => `"${name}" ${sqlType(columns[name]!)}`).join(', ');
      await wasm.run(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (${ddl})`);
      for (let at = 0; at < n; at += INSERT_ROWS) {
        const slice = Object.fromEntries(names.map((name) => [name, columns[name]!.subarray(at, Math.min(n, at + INSERT_ROWS))]));
        await wasm.insertIPC(table, tableToIPC(tableFromArrays(slice as Parameters<typeof tableFromArrays>[0]), 'stream'));
      }
      const file = path.join(folder, `${table}.parquet`);
      const properties = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(1 << 20).setCompression(parquet.Compression.UNCOMPRESSED).build();
      const wasmTable = parquet.Table.fromIPCStream(tableToIPC(tableFromArrays(columns as Parameters<typeof tableFromArrays>[0]), 'stream'));
      await writeFile(file, parquet.writeParquet(wasmTable, properties));
      await native.run(`CREATE OR REPLACE TABLE ${table} AS SELECT * FROM read_parquet('${file}')`);
      await rm(file);
    },
    async drop(table) {
      await wasm.run(`DROP TABLE IF EXISTS ${table}`);
      await native.run(`DROP TABLE IF EXISTS ${table}`);
    },
    wasmQuery: (sql) => wasm.queryIPC(sql),
    async nativeQuery(sql) {
      await native.run(sql);
    },
    wasmRows: (sql) => wasm.queryRows(sql),
    async nativeRows(sql) {
      return (await native.runAndReadAll(sql)).getRowObjects() as Record<string, unknown>[];
    },
    async close() {
      await wasm.close();
      native.closeSync();
      instance.closeSync();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A DuckDB list literal of fractions from thousandths of a percent (99_900 -> 0.999). */
export function fractionList(millis: readonly number[]): string {
  return `[${millis.map((m) => (m / 100_000).toString()).join(', ')}]`;
}
