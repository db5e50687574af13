import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from '../../src/schema/records.js';
import { holdsNulls, TABLES } from '../../src/schema/tables.js';
import { CANONICAL_TABLES, RECORD_TABLES, recordTableName, snakeCase, STORED_RECORDS } from '../../src/store/ddl.js';
import { openDuckDBNode } from '../../src/store/duckdb-node.js';
import { sqlIdent, sqlInteger, sqlLiteral, sqlString } from '../../src/store/sql.js';
import { openStore, type Store } from '../../src/store/store.js';

// The expected types are spelled out here, independently of ddl.ts's own maps.
const KIND_TYPE: Record<string, string> = {
  u64: 'UBIGINT', u32: 'UINTEGER', u8: 'UTINYINT', ns: 'BIGINT', utf8: 'VARCHAR', mint: 'VARCHAR', bool: 'BOOLEAN',
};
const WIRE_TYPE: Record<string, string> = {
  id: 'BIGINT', Utf8: 'VARCHAR', Uint1: 'UTINYINT', Uint4: 'UINTEGER', Uint8: 'UBIGINT', Int8: 'BIGINT',
  Float4: 'FLOAT', Float8: 'DOUBLE', DateTime: 'BIGINT', Duration: 'BIGINT', Boolean: 'BOOLEAN',
};

interface InfoColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: string;
  ordinal_position: number;
}

describe('store DDL', () => {
  let store: Store;
  let columns: InfoColumn[];
  beforeAll(async () => {
    store = await openStore(await openDuckDBNode());
    columns = (await store.rows(
      "SELECT table_name, column_name, data_type, is_nullable, ordinal_position::INTEGER AS ordinal_position FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = 'main' ORDER BY table_name, ordinal_position",
    )) as unknown as InfoColumn[];
  });
  afterAll(async () => {
    await store.close();
  });

  const columnsOf = (table: string) =>
    columns.filter((c) => c.table_name === table).map((c) => [c.column_name, c.data_type, c.is_nullable === 'YES']);

  it('names record tables in snake_case', () => {
    expect(snakeCase('BlockFees')).toBe('block_fees');
    expect(snakeCase('TopTransaction')).toBe('top_transaction');
    expect(snakeCase('Vwap')).toBe('vwap');
    expect(RECORDS.map(recordTableName)).toEqual([
      'token', 'block_fees', 'window_fees', 'recommendation', 'top_transaction', 'block_trades',
      'candle', 'volume', 'vwap', 'twap', 'trade', 'ingestion',
    ]);
  });

  it('creates the canonical tables but transactions and trades (resident columns) with the columns, order, types and nullability of TABLES', () => {
    expect(columnsOf('transactions')).toEqual([]);
    expect(columnsOf('trades')).toEqual([]);
    for (const table of Object.values(TABLES).filter((t) => t.name !== 'transactions' && t.name !== 'trades')) {
      expect(columnsOf(table.name)).toEqual(table.columns.map((c) => [c.name, KIND_TYPE[c.kind], holdsNulls(c)]));
    }
  });

  it('creates one table per stored record with the fields and wire types of RECORDS, and none for the others', () => {
    expect(STORED_RECORDS.map(recordTableName)).toEqual(['block_fees', 'window_fees', 'recommendation', 'ingestion']);
    for (const record of RECORDS.filter((r) => !STORED_RECORDS.includes(r))) expect(columnsOf(recordTableName(record))).toEqual([]);
    for (const record of STORED_RECORDS) {
      const expected = record.fields.map(([name, wire]) => [name, WIRE_TYPE[wire], /^(Uint|Int|Float)/.test(wire)]);
      expect(columnsOf(recordTableName(record))).toEqual(expected);
    }
  });

  it('creates nothing else in the main schema', () => {
    const names = new Set(columns.map((c) => c.table_name));
    expect([...names].sort()).toEqual([...Object.keys(CANONICAL_TABLES), ...Object.keys(RECORD_TABLES)].sort());
  });
});

describe('SQL literals', () => {
  it('quotes strings and identifiers', () => {
    expect(sqlString("it's")).toBe("'it''s'");
    expect(sqlIdent('we"ird')).toBe('"we""ird"');
    expect(() => sqlString('a\0b')).toThrow(/NUL/);
  });

  it('writes integers exactly and refuses unsafe numbers', () => {
    expect(sqlInteger(2n ** 64n - 1n)).toBe('18446744073709551615');
    expect(sqlInteger(-5)).toBe('-5');
    expect(() => sqlInteger(2 ** 53 + 2)).toThrow(/bigint/);
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(true)).toBe('TRUE');
    expect(sqlLiteral(1.5)).toBe('1.5::DOUBLE');
    expect(() => sqlLiteral(Number.NaN)).toThrow();
  });
});
