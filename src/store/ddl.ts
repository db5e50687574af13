/**
 * The store's tables, derived from the schema modules: the canonical input tables from `TABLES`
 * and one materialized table per stored record (`STORED_RECORDS`). No column list is written here.
 */
import { BlockFees, Ingestion, Recommendation, WindowFees, type RecordSchema } from '../schema/records.js';
import { holdsNulls, TABLES, type ColumnKind, type TableName } from '../schema/tables.js';
import type { WireType } from '../schema/wire.js';
import { sqlIdent } from './sql.js';

/** The DuckDB column types the store uses. Time is BIGINT nanoseconds: no TIMESTAMP, no ICU. */
export type SqlType = 'UBIGINT' | 'UINTEGER' | 'UTINYINT' | 'BIGINT' | 'VARCHAR' | 'BOOLEAN' | 'FLOAT' | 'DOUBLE';

/** One column of a store table. */
export interface SqlColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly nullable: boolean;
}

/** A store table: name and ordered columns. */
export interface SqlTable {
  readonly name: string;
  readonly columns: readonly SqlColumn[];
}

/** DuckDB type of each canonical column kind DuckDB holds (key lists are transactions', which stay resident). */
export const KIND_SQL: Record<Exclude<ColumnKind, 'keys'>, SqlType> = {
  u64: 'UBIGINT',
  u32: 'UINTEGER',
  u8: 'UTINYINT',
  ns: 'BIGINT',
  utf8: 'VARCHAR',
  mint: 'VARCHAR',
  bool: 'BOOLEAN',
};

/** DuckDB type of each wire type; DateTime and Duration are int64 nanoseconds. */
export const WIRE_SQL: Record<WireType, SqlType> = {
  id: 'BIGINT',
  Utf8: 'VARCHAR',
  Uint1: 'UTINYINT',
  Uint4: 'UINTEGER',
  Uint8: 'UBIGINT',
  Int8: 'BIGINT',
  Float4: 'FLOAT',
  Float8: 'DOUBLE',
  DateTime: 'BIGINT',
  Duration: 'BIGINT',
  Boolean: 'BOOLEAN',
};

/** `BlockFees` -> `block_fees`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

/** The table that holds materialized rows of a record (`BlockFees` -> `block_fees`). */
export function recordTableName(record: RecordSchema): string {
  return snakeCase(record.name);
}

/**
 * The canonical tables DuckDB-WASM holds: blocks and tokens. The transactions stay resident in
 * compact columns (transaction-segments.ts), the trades with the market (market/trade-log.ts).
 */
export type SqlCanonicalTable = Exclude<TableName, 'transactions' | 'trades'>;

/** Canonical tables in DuckDB-WASM: optional and nullable columns are nullable, the others NOT NULL. */
export const CANONICAL_TABLES: Record<SqlCanonicalTable, SqlTable> = Object.fromEntries(
  Object.values(TABLES).filter((t) => t.name !== 'transactions' && t.name !== 'trades').map((t) => [
    t.name,
    { name: t.name, columns: t.columns.map((c) => ({ name: c.name, type: KIND_SQL[c.kind as Exclude<ColumnKind, 'keys'>], nullable: holdsNulls(c) })) },
  ]),
) as unknown as Record<SqlCanonicalTable, SqlTable>;

/**
 * The records the store keeps, as rows written once (a block's fee statistics, a closed fee window,
 * a recommendation point once made, a slot's ingestion timings). Every other method answers from
 * memory (the market series and trade log, the live top list, the token book).
 */
export const STORED_RECORDS: readonly RecordSchema[] = [BlockFees, WindowFees, Recommendation, Ingestion];

/**
 * Materialized record tables, keyed by table name. Numeric fields are nullable (a statistic of an
 * empty sample set, a ratio over zero, an unknown USD price or supply is JSON null on the wire);
 * ids, times, durations, strings and booleans are NOT NULL.
 */
export const RECORD_TABLES: Readonly<Record<string, SqlTable>> = Object.fromEntries(
  STORED_RECORDS.map((r) => {
    const name = recordTableName(r);
    const columns = r.fields.map(([field, wire]) => ({
      name: field,
      type: WIRE_SQL[wire],
      nullable: wire !== 'id' && wire !== 'DateTime' && wire !== 'Duration' && wire !== 'Boolean' && wire !== 'Utf8',
    }));
    return [name, { name, columns }];
  }),
);

/**
 * What retention drops of each database table at a cut (docs/semantics.md, Retention): the rows of
 * blocks before it, and the fee windows that ended by it. Tokens are kept whole.
 */
export const CUT_ROWS: Readonly<Record<string, (cut: string) => string>> = {
  ...Object.fromEntries([CANONICAL_TABLES.blocks, ...Object.values(RECORD_TABLES)].map((t) => [t.name, (cut: string) => `"timestamp" < ${cut}`])),
  [recordTableName(WindowFees)]: (cut) => `window_end <= ${cut}`,
};

/** `CREATE TABLE IF NOT EXISTS` for a store table. */
export function createTableSql(table: SqlTable): string {
  const columns = table.columns.map((c) => `${sqlIdent(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`);
  return `CREATE TABLE IF NOT EXISTS ${sqlIdent(table.name)} (${columns.join(', ')})`;
}

/** Every store table, canonical first, in creation order. */
export const STORE_TABLES: readonly SqlTable[] = [...Object.values(CANONICAL_TABLES), ...Object.values(RECORD_TABLES)];
