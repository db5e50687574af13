/**
 * Validation and normalisation of input rows into the canonical tables, shared by every file format
 * and by row arrays. One normaliser per column kind; a row is kept whole or rejected whole, and each
 * rejection is data naming the source, the row and the field.
 */
import type { Table } from 'apache-arrow';
import type { SignatureValues } from './signature-values.js';
import { parseIsoTimestamp, parseUnixSeconds, NS_PER_SECOND } from '../schema/time.js';
import { MAX_TRANSACTION_KEYS, TABLES, type Column, type ColumnKind, type TableName } from '../schema/tables.js';
import { TableBuilder } from './arrow.js';
import { runToEnd, TimeSlices, type Steps } from '../platform/event-loop.js';
import { isPublicKey } from '../schema/base58.js';
import { U64_MAX } from '../schema/amounts.js';

/**
 * A rejected row. `row` is the 1-based line number in text formats (a CSV header is line 1, so the
 * first data row is line 2; for a CSV record spanning lines, the line it starts on) and the 1-based
 * row number in Parquet and Arrow files. `field` names the column, or is '' when the row as a whole
 * is bad (not JSON, wrong number of CSV fields).
 */
export interface Rejection {
  source: string;
  row: number;
  field: string;
  message: string;
}

/** A batch of one table from one source: the valid rows (canonical schema) and the rejected ones. */
export interface ValidatedBatch {
  table: TableName;
  source: string;
  /** Valid rows only, in the canonical Arrow schema (see arrow.ts). */
  rows: Table;
  /** Rows read in this batch: always rows.numRows + rejections.length. */
  read: number;
  /** The source row number of each valid row (for errors found later, across tables). */
  rowNumbers?: readonly number[] | Uint32Array;
  rejections: Rejection[];
  /**
   * Columns left in the file (checked where it was decoded), null in `rows`: row r of `rows` has
   * them at row `rowNumbers[r] - 1` of the file.
   */
  deferred?: DeferredColumns;
}

/** Columns of a file read back by row when first needed (files/parquet.ts). */
export interface DeferredColumns {
  /** The file's name. */
  readonly source: string;
  /** The columns left in the file. */
  readonly columns: readonly string[];
  /** Rows [from, to) of the file (0-based), the `columns` asked (every one left in the file by default). */
  read(from: number, to: number, columns?: readonly string[]): Promise<Table>;
  /**
   * Text columns among them that the decoder holds while the file loads: rows `rows` (0-based,
   * any order) of each, its values in `columns` order (UTF-8, the signatures as kept: read back
   * from the file for rows it no longer holds).
   */
  readonly text?: {
    readonly columns: readonly string[];
    take(rows: Uint32Array): Promise<SignatureValues[]>;
    /** Rows `rows` of its signatures, where the file left them unread (a required column: nothing to check at load). */
    readonly signatures?: (rows: Uint32Array) => Promise<SignatureValues>;
  };
}

/** The reason a value was refused; returned (not thrown) by the normalisers. */
export class InvalidValue {
  constructor(readonly message: string) {}
}

/** A value already known to be integer nanoseconds (an Arrow Timestamp or marked Int64 column). */
export class ExactNanos {
  constructor(readonly ns: bigint) {}
}

const MIN_I64 = -(1n << 63n);
const MAX_I64 = (1n << 63n) - 1n;
const NANOS_FROM = 1_000_000_000_000_000n;

function preview(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

const DECIMAL = /^\d+$/;
const NEGATIVE_DECIMAL = /^-\d+$/;
const FRACTIONAL = /^([+-]?)(\d*)\.(\d*)$/;

/** An unsigned integer up to `max` from a bigint, a safe-integer number or a decimal string. */
function unsignedInteger(value: unknown, max: bigint, kind: string): bigint | InvalidValue {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return new InvalidValue(`not a number: ${value}`);
    if (!Number.isInteger(value)) return new InvalidValue(`not an integer: ${value}`);
    if (!Number.isSafeInteger(value)) {
      return new InvalidValue(`${value} is beyond 2^53 as a floating-point number and not exact; write it as an integer literal or a decimal string`);
    }
    n = BigInt(value);
  } else if (typeof value === 'string') {
    if (DECIMAL.test(value)) n = BigInt(value);
    else if (NEGATIVE_DECIMAL.test(value)) n = BigInt(value);
    else if (FRACTIONAL.test(value)) return new InvalidValue(`not an integer: ${preview(value)}`);
    else return new InvalidValue(`not a number: ${preview(value)}`);
  } else {
    return new InvalidValue(`expected an unsigned integer, got ${preview(value)}`);
  }
  if (n < 0n) return new InvalidValue(`negative: ${n}; ${kind} is unsigned`);
  if (n > max) return new InvalidValue(`${n} is out of range for ${kind} (max ${max})`);
  return n;
}

function u64(value: unknown): bigint | InvalidValue {
  return unsignedInteger(value, U64_MAX, 'u64');
}

function u32(value: unknown): number | InvalidValue {
  if (typeof value === 'number' && value >= 0 && value <= 0xffff_ffff && Number.isInteger(value)) return value;
  const n = unsignedInteger(value, 0xffff_ffffn, 'u32');
  return n instanceof InvalidValue ? n : Number(n);
}

function u8(value: unknown): number | InvalidValue {
  if (typeof value === 'number' && value >= 0 && value <= 0xff && Number.isInteger(value)) return value;
  const n = unsignedInteger(value, 0xffn, 'u8');
  return n instanceof InvalidValue ? n : Number(n);
}

function bool(value: unknown): boolean | InvalidValue {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 1n) return true;
  if (value === 0 || value === 0n) return false;
  if (typeof value === 'string') {
    const text = value.toLowerCase();
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  return new InvalidValue(`not a boolean: ${preview(value)}; expected true/false or 1/0`);
}

function utf8(value: unknown): string | InvalidValue {
  return typeof value === 'string' ? value : new InvalidValue(`expected a string, got ${preview(value)}`);
}

// Keys recently found valid: mints, programs and busy signers repeat row after row.
const knownKeys = new Set<string>();
const KNOWN_KEYS_MAX = 1 << 16;

function mint(value: unknown): string | InvalidValue {
  if (typeof value !== 'string') return new InvalidValue(`expected a base58 public key, got ${preview(value)}`);
  if (knownKeys.has(value)) return value;
  if (!isPublicKey(value)) return new InvalidValue(`not a base58 32-byte public key: ${preview(value)}`);
  if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.clear();
  knownKeys.add(value);
  return value;
}

/**
 * A list of public keys: an array (or any iterable, such as an Arrow list value) of base58 keys, or
 * a text of them joined by `;` (CSV; an empty text is an empty list).
 */
function keys(value: unknown): string[] | InvalidValue {
  let list: unknown[];
  if (typeof value === 'string') list = value === '' ? [] : value.split(';');
  else if (typeof value === 'object' && value !== null && Symbol.iterator in value) list = Array.from(value as Iterable<unknown>);
  else return new InvalidValue(`expected a list of base58 public keys, got ${preview(value)}`);
  if (list.length > MAX_TRANSACTION_KEYS) return new InvalidValue(`${list.length} keys; a transaction loads at most ${MAX_TRANSACTION_KEYS}`);
  for (let i = 0; i < list.length; i++) {
    const key = mint(list[i]);
    if (key instanceof InvalidValue) return new InvalidValue(`key ${i + 1}: ${key.message}`);
  }
  return list as string[];
}

function inInt64(ns: bigint, value: unknown): bigint | InvalidValue {
  return ns >= MIN_I64 && ns <= MAX_I64 ? ns : new InvalidValue(`timestamp out of range: ${preview(value)}`);
}

/** An integer timestamp: nanoseconds when |n| >= 10^15, else Unix seconds. */
function integerTime(n: bigint, value: unknown): bigint | InvalidValue {
  return inInt64(n >= NANOS_FROM || n <= -NANOS_FROM ? n : n * NS_PER_SECOND, value);
}

/**
 * A timestamp to int64 nanoseconds since the Unix epoch. Accepted forms:
 * - an ISO-8601 string (UTC unless it has an offset; up to 9 fraction digits);
 * - an integer (bigint, integer number or integer decimal string): if its absolute value is at least
 *   10^15 it is nanoseconds, otherwise Unix seconds. (10^15 ns is 11.6 days after the epoch and 10^15 s
 *   is 31.7 million years, so real data is never ambiguous; an instant within 11.6 days of the epoch
 *   must be given as ISO-8601 or as seconds);
 * - a fractional number or decimal string: Unix seconds (a string is exact to the nanosecond; a number
 *   is taken at its shortest decimal form, so about 16 significant digits);
 * - a Date, or an ExactNanos (from a typed Arrow column), taken as is.
 */
function nanos(value: unknown): bigint | InvalidValue {
  if (value instanceof ExactNanos) return inInt64(value.ns, value.ns);
  if (typeof value === 'bigint') return integerTime(value, value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return new InvalidValue(`not a timestamp: ${value}`);
    if (Number.isSafeInteger(value)) return integerTime(BigInt(value), value);
    if (Number.isInteger(value)) {
      return new InvalidValue(`${value} is beyond 2^53 as a floating-point number and not exact; write nanoseconds as an integer literal`);
    }
    const text = String(value);
    const ns = parseUnixSeconds(text.includes('e') ? value.toFixed(9) : text);
    return ns === undefined ? new InvalidValue(`not a timestamp: ${value}`) : inInt64(ns, value);
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^[+-]?\d+$/.test(text)) return integerTime(BigInt(text), value);
    const seconds = FRACTIONAL.exec(text);
    if (seconds && (seconds[2] || seconds[3])) {
      const [, sign, whole, fraction] = seconds;
      const ns = parseUnixSeconds(`${sign === '-' ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`);
      if (ns !== undefined) return inInt64(ns, value);
    }
    const ns = parseIsoTimestamp(text);
    if (ns !== undefined) return inInt64(ns, value);
    return new InvalidValue(`unknown timestamp format: ${preview(value)}; expected ISO-8601, Unix seconds or integer nanoseconds`);
  }
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? new InvalidValue('invalid Date') : BigInt(ms) * 1_000_000n;
  }
  return new InvalidValue(`not a timestamp: ${preview(value)}`);
}

/** The normaliser of each column kind: the canonical value, or an InvalidValue with the reason. */
export const NORMALIZERS: Readonly<Record<ColumnKind, (value: unknown) => unknown>> = {
  u64, u32, u8, ns: nanos, utf8, bool, mint, keys,
};

/**
 * Normalises one non-null value to its kind: u64/ns as bigint, u32/u8 as number, bool as boolean,
 * utf8/mint as string, keys as string[]; or an InvalidValue. null/undefined are handled by the caller (required or not).
 */
export function normalizeValue(kind: ColumnKind, value: unknown): unknown {
  return NORMALIZERS[kind](value);
}

/** A rule on one column beyond its kind. */
export interface ColumnRule {
  readonly column: string;
  /** Whether a (non-null) value of the u64 column holds the rule. */
  readonly holds: (value: bigint) => boolean;
  /** The same over the value's high and low 32-bit words: a column's check makes no BigInt per row. */
  readonly holdsWords: (high: number, low: number) => boolean;
  readonly message: string;
}

/** A rule on a u64 column, defined over its words (the row path splits each value into them). */
function u64Rule(column: string, holdsWords: ColumnRule['holdsWords'], message: string): ColumnRule {
  return { column, holdsWords, holds: (value) => holdsWords(Number(value >> 32n), Number(value & 0xffff_ffffn)), message };
}

/**
 * The largest slot accepted: slots travel as JSON numbers (the RPC's and ours), exact up to 2^53 - 1.
 * A corrupt far-future slot is rejected here rather than taken as the newest block.
 */
export const MAX_SLOT = 2n ** 53n - 1n;
const slotRule = u64Rule('slot', (high) => high < 2 ** 21, `a slot above ${MAX_SLOT} (2^53 - 1, the largest exact JSON number)`);

/** Table rules beyond the column kinds. DESIGN.md 7: trades with a zero amount are rejected at ingest. */
export const TABLE_RULES: Partial<Record<TableName, readonly ColumnRule[]>> = {
  blocks: [slotRule],
  transactions: [slotRule],
  trades: [slotRule, ...['base_amount', 'quote_amount'].map((column) =>
    u64Rule(column, (high, low) => (high | low) !== 0, 'zero amount: a trade must move a nonzero amount'))],
};

/**
 * Accumulates the rows of one table from one source into a canonical batch. Readers hand it each row
 * as values in canonical column order (undefined: the column is absent; null: the value is null) with
 * its row number, and take a ValidatedBatch when they like (typically every `batchRows` rows read).
 */
export class BatchValidator {
  readonly columns: readonly Column[];
  private readonly builder: TableBuilder;
  private readonly normalizers: ((value: unknown) => unknown)[];
  private readonly scratch: unknown[];
  private readonly rules: { index: number; rule: ColumnRule }[];
  private rejections: Rejection[] = [];
  private kept: number[] = [];

  /** `capacity`: rows to allocate room for at first (the columns grow past it). */
  constructor(readonly table: TableName, readonly source: string, capacity = 1024) {
    this.columns = TABLES[table].columns;
    this.builder = new TableBuilder(table, capacity);
    this.normalizers = this.columns.map((column) => NORMALIZERS[column.kind]);
    this.scratch = new Array(this.columns.length);
    this.rules = (TABLE_RULES[table] ?? []).map((rule) => ({ index: this.columns.findIndex((c) => c.name === rule.column), rule }));
  }

  /** Rows read since the last `take` (kept + rejected). */
  get read(): number {
    return this.builder.length + this.rejections.length;
  }

  /** Validates one row; keeps it, or records a rejection for its first bad field. Returns whether kept. */
  add(row: number, values: ArrayLike<unknown>): boolean {
    const { columns, normalizers, scratch } = this;
    for (let j = 0; j < columns.length; j++) {
      const value = values[j];
      if (value === null || value === undefined) {
        if (columns[j].optional || (value === null && columns[j].nullable)) {
          scratch[j] = null;
          continue;
        }
        this.reject(row, columns[j].name, value === undefined ? 'missing required column' : 'missing value');
        return false;
      }
      const normalized = normalizers[j](value);
      if (normalized instanceof InvalidValue) {
        this.reject(row, columns[j].name, normalized.message);
        return false;
      }
      scratch[j] = normalized;
    }
    for (const { index, rule } of this.rules) {
      if (scratch[index] !== null && !rule.holds(scratch[index] as bigint)) {
        this.reject(row, rule.column, rule.message);
        return false;
      }
    }
    this.builder.appendNormalized(scratch);
    this.kept.push(row);
    return true;
  }

  /** Records a rejected row (for errors found before the values, such as a line that is not JSON). */
  reject(row: number, field: string, message: string): void {
    this.rejections.push({ source: this.source, row, field, message });
  }

  /** The batch of everything added since the last take; starts a new one. */
  take(): ValidatedBatch {
    return runToEnd(this.takeSteps());
  }

  /** `take` as Steps (see TableBuilder.finishSteps). */
  *takeSteps(): Steps<ValidatedBatch> {
    const rows = yield* this.builder.finishSteps();
    const batch = {
      table: this.table, source: this.source, rows, read: rows.numRows + this.rejections.length,
      rejections: this.rejections, rowNumbers: this.kept,
    };
    this.rejections = [];
    this.kept = [];
    return batch;
  }
}

/**
 * Validates plain-object rows (keys = column names; values in any accepted form) into one batch.
 * `firstRow` is the row number reported for rows[0] (default 1). The event loop runs between
 * slices of rows (a block's transactions take a few milliseconds): the rows must not change
 * until the batch is returned.
 */
export async function validateRows(
  table: TableName, rows: Iterable<object>, source: string, firstRow = 1,
): Promise<ValidatedBatch> {
  const validator = new BatchValidator(table, source);
  const names = validator.columns.map((column) => column.name);
  const values: unknown[] = new Array(names.length);
  const slices = new TimeSlices();
  let row = firstRow;
  for (const record of rows as Iterable<Readonly<Record<string, unknown>>>) {
    for (let j = 0; j < names.length; j++) values[j] = record[names[j]];
    validator.add(row++, values);
    if ((row & 63) === 0 && slices.spent) await slices.next();
  }
  return slices.run(validator.takeSteps());
}
