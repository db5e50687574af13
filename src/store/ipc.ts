/**
 * Arrow IPC on our side of the DuckDB boundary, with our apache-arrow (21). DuckDB-WASM bundles
 * its own apache-arrow (17), so Arrow objects never cross: bytes go in, bytes come out.
 */
import {
  Bool, DataType, Float32, Float64, Int64, Table, Type, Uint32, Uint64, Uint8, Utf8,
  tableFromIPC, tableToIPC, util, vectorFromArray, type Vector,
} from 'apache-arrow';
import type { SqlColumn, SqlTable, SqlType } from './ddl.js';

const EOS = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
const FILE_MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
}

/**
 * Checks the framing of bytes about to be handed to DuckDB-WASM's `insertArrowFromIPCStream`.
 * That call buffers input until it sees an end-of-stream marker, so a truncated stream or an IPC
 * *file* would be held open and silently swallow every later insert on the connection.
 */
export function assertCompleteIPCStream(bytes: Uint8Array): void {
  if (startsWith(bytes, FILE_MAGIC)) throw new TypeError('Arrow IPC file format given where a stream is required');
  if (!startsWith(bytes, [0xff, 0xff, 0xff, 0xff]) || !startsWith(bytes, EOS, bytes.length - EOS.length)) {
    throw new TypeError('not a complete Arrow IPC stream (it must begin with a continuation marker and end with the end-of-stream marker)');
  }
}

/**
 * IPC stream bytes of an IPC file or stream. DuckDB-WASM returns query results in the file format,
 * which embeds the stream (schema, batches, end-of-stream marker) between its magic and its footer:
 * that slice is returned without a copy.
 */
export function ipcStream(bytes: Uint8Array): Uint8Array {
  if (!startsWith(bytes, FILE_MAGIC)) return bytes;
  const footer = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(bytes.length - 10, true);
  const stream = bytes.subarray(8, bytes.length - 10 - footer);
  if (startsWith(stream, EOS, stream.length - EOS.length)) return stream;
  return tableToIPC(tableFromIPC(bytes), 'stream');
}

/** Plain value of one Arrow cell: 64-bit and scale-0 decimal integers as exact bigints. */
function plain(type: DataType): (value: unknown) => unknown {
  if (DataType.isDecimal(type)) {
    const scale = type.scale;
    // bigNumToBigInt gives a string above 64 bits; the decimal string is exact at any width.
    return (v) => (v == null ? null : scale === 0 ? BigInt(util.bigNumToString(v as never)) : util.bigNumToNumber(v as never, scale));
  }
  return (v) => v ?? null;
}

/**
 * Plain-object rows of an IPC result. BIGINT/UBIGINT (and HUGEINT sums, which DuckDB sends as
 * scale-0 decimals) are bigint, exact; smaller integers and floats are numbers; NULL is null.
 */
export function rowsFromIPC(bytes: Uint8Array): Record<string, unknown>[] {
  const table = tableFromIPC(bytes);
  const rows: Record<string, unknown>[] = Array.from({ length: table.numRows }, () => ({}));
  table.schema.fields.forEach((field, c) => {
    const column = table.getChildAt(c)!;
    const convert = plain(field.type);
    for (let i = 0; i < rows.length; i++) rows[i]![field.name] = convert(column.get(i));
  });
  return rows;
}

/** The Arrow type a column of each store type is written as (records and filled-in nulls alike). */
export const ARROW_OF: Record<SqlType, () => DataType> = {
  UBIGINT: () => new Uint64(),
  UINTEGER: () => new Uint32(),
  UTINYINT: () => new Uint8(),
  BIGINT: () => new Int64(),
  VARCHAR: () => new Utf8(),
  BOOLEAN: () => new Bool(),
  FLOAT: () => new Float32(),
  DOUBLE: () => new Float64(),
};

function isText(type: DataType): boolean {
  if (DataType.isDictionary(type)) return isText(type.dictionary);
  return DataType.isUtf8(type) || DataType.isLargeUtf8(type);
}

/**
 * Whether an Arrow type may fill a column: any integer width for integer columns (DuckDB checks
 * the range on insert), never a float for an integer column (it would be rounded silently).
 */
function accepts(column: SqlColumn, type: DataType): boolean {
  if (type.typeId === Type.Null) return column.nullable;
  switch (column.type) {
    case 'VARCHAR':
      return isText(type);
    case 'BOOLEAN':
      return DataType.isBool(type);
    case 'FLOAT':
    case 'DOUBLE':
      return DataType.isFloat(type) || DataType.isInt(type);
    default:
      return DataType.isInt(type);
  }
}

function firstNull(vector: Vector): number {
  for (let i = 0; i < vector.length; i++) if (!vector.isValid(i)) return i;
  return -1;
}

/**
 * The rows rebuilt with exactly the table's columns in the table's order: DuckDB inserts Arrow
 * columns by position, not by name, so a reordered or renamed column would otherwise land in the
 * wrong place. Missing nullable columns are filled with nulls; a missing required column, an
 * unknown column, a type that would lose data, or a null in a NOT NULL column is an error that
 * names the table, column and (1-based) row. No data is copied: the columns are the input's.
 */
export function conformToSql(input: Table, table: SqlTable): Table {
  if (input.schema.fields.length === 0) throw new TypeError(`${table.name}: no columns`);
  const known = new Set(table.columns.map((c) => c.name));
  const seen = new Set<string>();
  for (const field of input.schema.fields) {
    if (!known.has(field.name)) throw new TypeError(`${table.name}: unknown column ${field.name}`);
    if (seen.has(field.name)) throw new TypeError(`${table.name}: duplicate column ${field.name}`);
    seen.add(field.name);
  }
  const rows = input.numRows;
  const columns: Record<string, Vector> = {};
  for (const column of table.columns) {
    const vector = input.getChild(column.name);
    if (vector === null) {
      if (!column.nullable) throw new TypeError(`${table.name}: missing required column ${column.name}`);
      columns[column.name] = vectorFromArray(new Array<null>(rows).fill(null), ARROW_OF[column.type]());
      continue;
    }
    if (!accepts(column, vector.type)) {
      throw new TypeError(`${table.name}: column ${column.name} has Arrow type ${String(vector.type)}, which cannot fill ${column.type}`);
    }
    if (!column.nullable && vector.nullCount > 0) {
      throw new TypeError(`${table.name}: null in NOT NULL column ${column.name} at row ${firstNull(vector) + 1}`);
    }
    columns[column.name] = vector;
  }
  return new Table(columns);
}
