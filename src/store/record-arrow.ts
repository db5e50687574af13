/**
 * Materialized record rows across the store boundary: records -> an Arrow table for appends, and
 * store rows -> records for answers. Arrow types are the store columns' (ddl.ts's WIRE_SQL, ipc.ts's ARROW_OF).
 */
import { Table, vectorFromArray, type Vector } from 'apache-arrow';
import type { RecordOf, RecordSchema } from '../schema/records.js';
import type { WireType } from '../schema/wire.js';
import { WIRE_SQL } from './ddl.js';
import { ARROW_OF } from './ipc.js';

/** The wire types stored as 64-bit integers: a record may hold them as numbers (ids), Arrow takes bigints. */
const isBigint = (wire: WireType): boolean => WIRE_SQL[wire] === 'BIGINT' || WIRE_SQL[wire] === 'UBIGINT';

/** Records as an Arrow table, one column per schema field, in schema order. */
export function recordsToTable<S extends RecordSchema>(schema: S, records: readonly RecordOf<S>[]): Table {
  const columns: Record<string, Vector> = {};
  for (const [name, wire] of schema.fields) {
    const values = records.map((r) => {
      const value = (r as Record<string, unknown>)[name];
      return isBigint(wire) && typeof value === 'number' ? BigInt(value) : value;
    });
    columns[name] = vectorFromArray(values as never[], ARROW_OF[WIRE_SQL[wire]]());
  }
  return new Table(columns);
}

/** A record from a store row: ids back to JSON-safe numbers, small unsigned integers to numbers. */
export function rowToRecord<S extends RecordSchema>(schema: S, row: Record<string, unknown>): RecordOf<S> {
  const out: Record<string, unknown> = {};
  for (const [name, wire] of schema.fields) {
    const value = row[name];
    const small = wire === 'id' || wire === 'Uint1' || wire === 'Uint4';
    out[name] = small && value !== null ? Number(value) : value;
  }
  return out as RecordOf<S>;
}
