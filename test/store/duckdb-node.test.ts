import { Table, tableFromArrays, tableFromIPC, tableToIPC, makeVector } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuckDBNode } from '../../src/store/duckdb-node.js';
import type { SqlConnection } from '../../src/store/sql-connection.js';

describe('DuckDB-WASM blocking build in Node', () => {
  let db: SqlConnection;
  beforeAll(async () => {
    db = await openDuckDBNode();
  });
  afterAll(async () => {
    await db.close();
  });

  it('opens offline with extension autoloading and autoinstall off', async () => {
    const [settings] = await db.queryRows(
      "SELECT current_setting('autoload_known_extensions') AS autoload, current_setting('autoinstall_known_extensions') AS autoinstall",
    );
    expect(settings).toEqual({ autoload: false, autoinstall: false });
    // An extension-backed reader fails at once instead of trying to download parquet.
    await expect(db.run("SELECT * FROM read_parquet('missing.parquet')")).rejects.toThrow(/parquet/);
  });

  it('inserts Arrow IPC and reads u64 back exactly above 2^53 and near 2^64 - 1', async () => {
    const values = [0n, 2n ** 53n + 1n, 2n ** 63n + 7n, 2n ** 64n - 2n, 2n ** 64n - 1n];
    await db.run('CREATE TABLE exact (v UBIGINT NOT NULL, t BIGINT NOT NULL)');
    const table = new Table({
      v: makeVector(new BigUint64Array(values)),
      t: makeVector(new BigInt64Array([-(2n ** 63n), -1n, 0n, 2n ** 62n + 3n, 2n ** 63n - 1n])),
    });
    await db.insertIPC('exact', tableToIPC(table, 'stream'));
    const rows = await db.queryRows('SELECT v, t FROM exact ORDER BY v');
    expect(rows.map((r) => r.v)).toEqual(values);
    expect(rows.map((r) => r.t)).toEqual([-(2n ** 63n), -1n, 0n, 2n ** 62n + 3n, 2n ** 63n - 1n]);

    const ipc = await db.queryIPC('SELECT v FROM exact ORDER BY v');
    const column = tableFromIPC(ipc).getChild('v')!.toArray() as BigUint64Array;
    expect(Array.from(column)).toEqual(values);
  });

  it('returns query results as an IPC stream (no file magic) that can be inserted again', async () => {
    await db.run('CREATE TABLE copy_src (a UINTEGER, s VARCHAR); INSERT INTO copy_src VALUES (1, \'x\'), (2, NULL)');
    await db.run('CREATE TABLE copy_dst (a UINTEGER, s VARCHAR)');
    const ipc = await db.queryIPC('SELECT * FROM copy_src ORDER BY a');
    expect(new TextDecoder().decode(ipc.subarray(0, 6))).not.toBe('ARROW1');
    await db.insertIPC('copy_dst', ipc);
    expect(await db.queryRows('SELECT * FROM copy_dst ORDER BY a')).toEqual([{ a: 1, s: 'x' }, { a: 2, s: null }]);
  });

  it('sums of u64 (HUGEINT) come back as exact bigints', async () => {
    const [row] = await db.queryRows('SELECT sum(v) AS total, count(*) AS n FROM exact');
    const expected = 0n + (2n ** 53n + 1n) + (2n ** 63n + 7n) + (2n ** 64n - 2n) + (2n ** 64n - 1n);
    expect(row).toEqual({ total: expected, n: 5n });
    const [negative] = await db.queryRows('SELECT -170141183460469231731687303715884105727::HUGEINT AS h, 12.5::DECIMAL(10, 2) AS d');
    expect(negative).toEqual({ h: -170141183460469231731687303715884105727n, d: 12.5 });
  });

  // Regression: insertArrowFromIPCStream buffers until an end-of-stream marker, so a truncated stream
  // or an IPC file used to wedge the connection and silently swallow every later insert.
  it('rejects IPC that is not one complete stream, and later inserts still land', async () => {
    await db.run('CREATE TABLE framed (a UBIGINT)');
    const good = (n: bigint): Uint8Array => tableToIPC(tableFromArrays({ a: new BigUint64Array([n]) }), 'stream');
    const stream = good(1n);
    await expect(db.insertIPC('framed', stream.subarray(0, stream.length - 20))).rejects.toThrow(/complete Arrow IPC stream/);
    await expect(db.insertIPC('framed', tableToIPC(tableFromArrays({ a: new BigUint64Array([2n]) }), 'file'))).rejects.toThrow(/file format/);
    await expect(db.insertIPC('framed', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))).rejects.toThrow(/complete Arrow IPC stream/);
    await db.insertIPC('framed', good(3n));
    expect(await db.queryRows('SELECT a FROM framed')).toEqual([{ a: 3n }]);
  });

  it('reports SQL errors as rejections', async () => {
    await expect(db.queryRows('SELECT nonsense')).rejects.toThrow(/nonsense/);
    await expect(db.insertIPC('no_such_table', tableToIPC(tableFromArrays({ a: [1] }), 'stream'))).rejects.toThrow(/no_such_table/);
  });
});
