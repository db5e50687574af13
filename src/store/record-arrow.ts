/**
 * Materialized record rows across the store boundary: records -> an Arrow table for appends, and
 * store rows -> records for answers. Arrow types are derived from the wire types of the schema.
 */
import {
  Bool, Float32, Float64, Int64, Table, Uint32, Uint64, Uint8, Utf8, vectorFromArray, type DataType, type Vector,
} from 'apache-arrow';
import type { RecordOf, RecordSchema } from '../schema/records.js';
import type { WireType } from '../schema/wire.js';

const ARROW_TYPE: Record<WireType, () => DataType> = {
  id: () => new Int64(),
  Utf8: () => new Utf8(),
  Uint1: () => new Uint8(),
  Uint4: () => new Uint32(),
  Uint8: () => new Uint64(),
  Int8: () => new Int64(),
  Float4: () => new Float32(),
  Float8: () => new Float64(),
  DateTime: () => new Int64(),
  Duration: () => new Int64(),
  Boolean: () => new Bool(),
};

const BIGINT_TYPES = new Set<WireType>(['id', 'Uint8', 'Int8', 'DateTime', 'Duration']);

/** Records as an Arrow table, one column per schema field, in schema order. */
export function recordsToTable<S extends RecordSchema>(schema: S, records: readonly RecordOf<S>[]): Table {
  const columns: Record<string, Vector> = {};
  for (const [name, wire] of schema.fields) {
    const values = records.map((r) => {
      const value = (r as Record<string, unknown>)[name];
      return BIGINT_TYPES.has(wire) && typeof value === 'number' ? BigInt(value) : value;
    });
    columns[name] = vectorFromArray(values as never[], ARROW_TYPE[wire]());
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
