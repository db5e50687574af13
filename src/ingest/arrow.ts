/**
 * The canonical tables (src/schema/tables.ts) as Apache Arrow: their schemas, a columnar builder
 * over typed arrays, and conversions between Arrow Tables and plain-object rows.
 */
import {
  Bool, Field, Int64, List, makeData, RecordBatch, Schema, Struct, Table, Type, Uint32, Uint64, Uint8, Utf8,
  type Data, type DataType, type Vector,
} from 'apache-arrow';
import {
  holdsNulls, TABLES, type BlockRow, type ColumnKind, type TableName, type TokenRow, type TradeRow, type TransactionRow,
} from '../schema/tables.js';
import { U64_MAX } from '../schema/amounts.js';
import { runToEnd, type Steps } from '../platform/event-loop.js';

/** The row type of each canonical table. */
export interface TableRows {
  blocks: BlockRow;
  transactions: TransactionRow;
  trades: TradeRow;
  tokens: TokenRow;
}
/** Plain-object row of table T (u64 and ns as bigint). */
export type RowOf<T extends TableName> = TableRows[T];

/**
 * Field metadata marking an Int64 column as integer nanoseconds. Readers take such a column as exact
 * nanoseconds; an unmarked integer column goes through the seconds-or-nanoseconds rule of validate.ts.
 */
export const NANOS_METADATA_KEY = 'chainlens.unit';

/** The Arrow type that stores a column kind. `ns` is Int64 integer nanoseconds, not an Arrow Timestamp. */
export function arrowType(kind: ColumnKind): DataType {
  switch (kind) {
    case 'keys': return new List(new Field('item', new Utf8(), false));
    case 'u64': return new Uint64();
    case 'u32': return new Uint32();
    case 'u8': return new Uint8();
    case 'ns': return new Int64();
    case 'bool': return new Bool();
    case 'utf8':
    case 'mint': return new Utf8();
  }
}

const schemas = new Map<TableName, Schema>();

/** The canonical Arrow schema of a table: columns in order, optional and nullable columns nullable. */
export function arrowSchema(table: TableName): Schema {
  let schema = schemas.get(table);
  if (!schema) {
    schema = new Schema(TABLES[table].columns.map((column) => new Field(
      column.name, arrowType(column.kind), holdsNulls(column),
      column.kind === 'ns' ? new Map([[NANOS_METADATA_KEY, 'ns']]) : null,
    )));
    schemas.set(table, schema);
  }
  return schema;
}

const MIN_I64 = -(1n << 63n);
const MAX_I64 = (1n << 63n) - 1n;

type Store = BigUint64Array | BigInt64Array | Uint32Array | Uint8Array;

/** One column being built: values (0 in null slots), strings or key lists, and a 0/1 validity byte per row. */
interface ColumnBuffer {
  readonly kind: ColumnKind;
  readonly name: string;
  readonly nullable: boolean;
  values: Store | string[] | string[][];
  valid: Uint8Array | undefined;
  nulls: number;
}

function newStore(kind: ColumnKind, capacity: number): Store | string[] | string[][] {
  switch (kind) {
    case 'u64': return new BigUint64Array(capacity);
    case 'ns': return new BigInt64Array(capacity);
    case 'u32': return new Uint32Array(capacity);
    case 'u8':
    case 'bool': return new Uint8Array(capacity);
    case 'utf8':
    case 'mint':
    case 'keys': return [];
  }
}

/**
 * Builds canonical Arrow Tables column by column into typed arrays (no per-row Arrow builders).
 * `append` takes values already normalised to their kind (see validate.ts) and checks only what
 * the storage needs: the JS type and the integer range, so nothing wraps around silently.
 */
export class TableBuilder {
  private columns: ColumnBuffer[];
  private capacity: number;
  private count = 0;

  constructor(readonly table: TableName, capacity = 1024) {
    this.capacity = Math.max(1, capacity);
    this.columns = TABLES[table].columns.map((column) => ({
      kind: column.kind, name: column.name, nullable: holdsNulls(column),
      values: newStore(column.kind, this.capacity), valid: undefined, nulls: 0,
    }));
    this.reset();
  }

  /** Rows appended since the last `finish`. */
  get length(): number {
    return this.count;
  }

  /**
   * Appends one row: values in canonical column order; null (or undefined) only in optional and nullable columns.
   * Throws a TypeError or RangeError naming the column when a value does not fit its kind.
   */
  append(values: ArrayLike<unknown>): void {
    // check everything first, so that a failed append leaves no partial row behind
    for (let j = 0; j < this.columns.length; j++) checkStorable(this.columns[j], values[j]);
    this.appendNormalized(values);
  }

  /**
   * Appends one row without checks: for values that validate.ts's normalisers produced (each of its
   * column's kind and range, null only in optional and nullable columns).
   */
  appendNormalized(values: ArrayLike<unknown>): void {
    if (this.count === this.capacity) this.grow();
    const row = this.count;
    const columns = this.columns;
    for (let j = 0; j < columns.length; j++) {
      const column = columns[j];
      const value = values[j];
      if (value === null || value === undefined) {
        column.valid![row] = 0;
        column.nulls++;
        continue;
      }
      if (column.valid) column.valid[row] = 1;
      if (Array.isArray(column.values)) (column.values as unknown[]).push(value);
      else if (column.kind === 'bool') column.values[row] = value ? 1 : 0;
      else (column.values as Uint32Array)[row] = value as number; // typed arrays take bigint or number per kind
    }
    this.count++;
  }

  /** The rows appended so far as a Table of the canonical schema (one record batch); starts empty again. */
  finish(): Table {
    return runToEnd(this.finishSteps());
  }

  /** `finish` as Steps: it may pause between columns (a block's text and key lists take about a millisecond). */
  *finishSteps(): Steps<Table> {
    const schema = arrowSchema(this.table);
    const length = this.count;
    const children: Data[] = [];
    for (const [j, column] of this.columns.entries()) {
      children.push(yield* columnData(column, schema.fields[j].type, length));
      yield;
    }
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
    this.reset();
    return new Table([batch]);
  }

  private reset(): void {
    this.count = 0;
    for (const column of this.columns) {
      column.values = newStore(column.kind, this.capacity);
      column.valid = column.nullable ? new Uint8Array(this.capacity) : undefined;
      column.nulls = 0;
    }
  }

  private grow(): void {
    this.capacity *= 2;
    for (const column of this.columns) {
      if (!Array.isArray(column.values)) {
        const next = newStore(column.kind, this.capacity) as Store;
        (next as Uint8Array).set(column.values as Uint8Array);
        column.values = next;
      }
      if (column.valid) {
        const valid = new Uint8Array(this.capacity);
        valid.set(column.valid);
        column.valid = valid;
      }
    }
  }
}

function checkStorable(column: ColumnBuffer, value: unknown): void {
  if (value === null || value === undefined) {
    if (!column.nullable) throw new TypeError(`${column.name}: missing value in a required column`);
    return;
  }
  let ok: boolean;
  switch (column.kind) {
    case 'u64': ok = typeof value === 'bigint' && value >= 0n && value <= U64_MAX; break;
    case 'ns': ok = typeof value === 'bigint' && value >= MIN_I64 && value <= MAX_I64; break;
    case 'u32': ok = Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffff_ffff; break;
    case 'u8': ok = Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xff; break;
    case 'bool': ok = typeof value === 'boolean'; break;
    case 'keys': ok = Array.isArray(value) && value.every((key) => typeof key === 'string'); break;
    default: ok = typeof value === 'string';
  }
  if (!ok) throw new RangeError(`${column.name}: ${describe(value)} is not a ${column.kind} value`);
}

function describe(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function* columnData(column: ColumnBuffer, type: DataType, length: number): Steps<Data> {
  const nullCount = column.nulls;
  const nullBitmap = nullCount > 0 ? packBits(column.valid!, length) : undefined;
  if (column.kind === 'keys') return yield* keyListData(column.values as string[][], column.valid, type as List<Utf8>, length, nullCount, nullBitmap);
  if (Array.isArray(column.values)) {
    const { valueOffsets, data } = yield* encodeStrings(column.values as string[], column.valid, length);
    return makeData({ type: type as Utf8, length, nullCount, nullBitmap, valueOffsets, data });
  }
  if (column.kind === 'bool') {
    return makeData({ type: type as Bool, length, nullCount, nullBitmap, data: packBits(column.values as Uint8Array, length) });
  }
  // a short batch (the last of a file) gets its own small buffer rather than a view of a large one
  const values = length < column.values.length / 2 ? column.values.slice(0, length) : column.values.subarray(0, length);
  return makeData({ type: type as Uint64, length, nullCount, nullBitmap, data: values as BigUint64Array });
}

/** A List<Utf8> column of key lists (null slots are empty lists). */
function* keyListData(
  lists: string[][], valid: Uint8Array | undefined, type: List<Utf8>, length: number, nullCount: number, nullBitmap: Uint8Array | undefined,
): Steps<Data> {
  const valueOffsets = new Int32Array(length + 1);
  const keys: string[] = [];
  let next = 0;
  for (let i = 0; i < length; i++) {
    if (!valid || valid[i]) for (const key of lists[next++]!) keys.push(key);
    valueOffsets[i + 1] = keys.length;
  }
  const strings = yield* encodeStrings(keys, undefined, keys.length);
  const child = makeData({ type: new Utf8(), length: keys.length, nullCount: 0, ...strings });
  return makeData({ type, length, nullCount, nullBitmap, valueOffsets, child });
}

/** Packs one 0/1 byte per row into an Arrow (LSB-first) bitmap. */
function packBits(bytes: Uint8Array, length: number): Uint8Array {
  const bits = new Uint8Array(((length + 63) >> 6) << 3);
  for (let i = 0; i < length; i++) if (bytes[i]) bits[i >> 3] |= 1 << (i & 7);
  return bits;
}

const encoder = new TextEncoder();

/** Strings encoded at a time: a block's key lists (~7,000 keys) took about a millisecond in one piece. */
const STRING_PIECE = 2048;

/**
 * UTF-8 bytes and Int32 offsets of a string column; null slots are empty. Steps of STRING_PIECE
 * rows, each one encode of their strings joined (faster than one per string); when a piece is all
 * ASCII (base58 keys, signatures, most names) each string's byte length is its length.
 */
function* encodeStrings(strings: string[], valid: Uint8Array | undefined, length: number): Steps<{ valueOffsets: Int32Array; data: Uint8Array }> {
  const valueOffsets = new Int32Array(length + 1);
  const pieces: Uint8Array[] = [];
  let at = 0;
  let next = 0;
  for (let from = 0; from < length; from += STRING_PIECE) {
    const to = Math.min(length, from + STRING_PIECE);
    let count = 0;
    for (let i = from; i < to; i++) if (!valid || valid[i]) count++;
    const joined = strings.slice(next, next + count).join('');
    const bytes = encoder.encode(joined);
    const byteLength = bytes.length === joined.length ? (text: string) => text.length : utf8Length;
    for (let i = from; i < to; i++) {
      if (!valid || valid[i]) at += byteLength(strings[next++]);
      valueOffsets[i + 1] = at;
    }
    pieces.push(bytes);
    if (to < length) yield;
  }
  if (pieces.length === 1) return { valueOffsets, data: pieces[0]! };
  const data = new Uint8Array(at);
  let offset = 0;
  for (const piece of pieces) {
    data.set(piece, offset);
    offset += piece.length;
  }
  return { valueOffsets, data };
}

/** Bytes of a string in UTF-8 (a lone surrogate counts 3, as TextEncoder writes U+FFFD for it). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Builds a canonical Table from typed rows (u64 and ns as bigint; a missing optional column is null).
 * Values must already be canonical: use `validateRows` (validate.ts) for untrusted input. Throws a
 * RangeError naming the 0-based row index and column for a value that does not fit its column.
 */
export function rowsToTable<T extends TableName>(table: T, rows: readonly RowOf<T>[]): Table {
  const builder = new TableBuilder(table, rows.length);
  const names = TABLES[table].columns.map((column) => column.name);
  const values: unknown[] = new Array(names.length);
  rows.forEach((row, index) => {
    const record = row as unknown as Record<string, unknown>;
    for (let j = 0; j < names.length; j++) values[j] = record[names[j]];
    try {
      builder.append(values);
    } catch (error) {
      throw new RangeError(`${table} row ${index}: ${(error as Error).message}`);
    }
  });
  return builder.finish();
}

/**
 * Plain-object rows of a canonical Table (every column present; null for a null value).
 * Meant for tests and small paths: it reads value by value.
 */
export function tableToRows<T extends TableName>(table: T, data: Table): RowOf<T>[] {
  const read = rowReader(table, data);
  const rows: RowOf<T>[] = new Array(data.numRows);
  for (let i = 0; i < data.numRows; i++) rows[i] = read(i);
  return rows;
}

/** Reads row i of a canonical table as a plain object (for the few rows an answer shows). */
export function rowReader<T extends TableName>(table: T, data: Table): (i: number) => RowOf<T> {
  const columns = TABLES[table].columns.map((column) => {
    const vector = data.getChild(column.name);
    if (!vector) throw new TypeError(`not a ${table} table: no column ${column.name}`);
    return { name: column.name, kind: column.kind, vector };
  });
  return (i) => {
    const row: Record<string, unknown> = {};
    for (const { name, kind, vector } of columns) row[name] = cellValue(kind, vector, i);
    return row as unknown as RowOf<T>;
  };
}

function cellValue(kind: ColumnKind, vector: Vector, i: number): unknown {
  const value: unknown = vector.get(i);
  if (value === null || value === undefined) return null;
  if (kind === 'u64' || kind === 'ns') return typeof value === 'bigint' ? value : BigInt(value as number);
  if (kind === 'u32' || kind === 'u8') return Number(value);
  if (kind === 'keys') return [...(value as Vector<Utf8>)];
  return value;
}

/**
 * A chunk as a Table of exactly the canonical schema: the canonical columns in order, extra columns
 * dropped, a missing optional column added as nulls. Throws a TypeError when a required column is
 * missing or a column's Arrow type is not the canonical one.
 */
export function conformTable(table: TableName, data: Table): Table {
  const schema = arrowSchema(table);
  const sources = schema.fields.map((field, j) => {
    const index = data.schema.fields.findIndex((f) => f.name === field.name);
    if (index < 0) {
      if (!TABLES[table].columns[j].optional) throw new TypeError(`not a ${table} table: no column ${field.name}`);
      return -1;
    }
    const actual = data.schema.fields[index].type;
    if (!sameType(actual, field.type)) {
      throw new TypeError(`not a canonical ${table} table: column ${field.name} is ${actual}, expected ${field.type}`);
    }
    return index;
  });
  const batches = data.batches.map((batch) => {
    const children = sources.map((index, j) => index >= 0
      ? batch.data.children[index]
      : allNull(schema.fields[j].type, batch.numRows));
    for (const [j, child] of children.entries()) {
      if (!schema.fields[j].nullable && child.nullCount > 0) {
        throw new TypeError(`not a canonical ${table} table: required column ${schema.fields[j].name} holds nulls`);
      }
    }
    return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children }));
  });
  return batches.length > 0 ? new Table(batches) : new Table(schema);
}

function sameType(a: DataType, b: DataType): boolean {
  if (a.typeId !== b.typeId) return false;
  if (a.typeId === Type.Int) {
    const [x, y] = [a as unknown as { bitWidth: number; isSigned: boolean }, b as unknown as { bitWidth: number; isSigned: boolean }];
    return x.bitWidth === y.bitWidth && x.isSigned === y.isSigned;
  }
  if (a.typeId === Type.List) return sameType((a as List).valueType, (b as List).valueType);
  return true;
}

function allNull(type: DataType, length: number): Data {
  const nullBitmap = new Uint8Array(((length + 63) >> 6) << 3);
  if (type.typeId === Type.Utf8) {
    return makeData({ type: type as Utf8, length, nullCount: length, nullBitmap, valueOffsets: new Int32Array(length + 1), data: new Uint8Array(0) });
  }
  if (type.typeId === Type.Bool) return makeData({ type: type as Bool, length, nullCount: length, nullBitmap, data: new Uint8Array(nullBitmap.length) });
  if (type.typeId === Type.List) {
    const child = allNull((type as List).valueType, 0);
    return makeData({ type: type as List, length, nullCount: length, nullBitmap, valueOffsets: new Int32Array(length + 1), child });
  }
  const ArrayType = (type as unknown as { ArrayType: new (n: number) => BigUint64Array }).ArrayType;
  return makeData({ type: type as Uint64, length, nullCount: length, nullBitmap, data: new ArrayType(length) });
}
