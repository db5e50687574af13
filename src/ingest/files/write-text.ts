/**
 * NDJSON and CSV writers. Integers are written as exact integer literals (u64 above 2^53 included:
 * never through a float); timestamps as int64 nanoseconds, except within 10^15 ns of the epoch,
 * where readers would take an integer as seconds: there as ISO-8601 with 9 fraction digits, which
 * reads back to the same nanosecond.
 */
import type { Table } from 'apache-arrow';
import { encodeTimestamp } from '../../schema/encode.js';
import { TABLES, type ColumnKind, type TableName } from '../../schema/tables.js';
import type { SinkWriter } from './sink.js';

/** A format writer: takes canonical Tables, ends the file. */
export interface FormatWriter {
  write(table: Table): Promise<void>;
  end(): Promise<void>;
}

const NANOS_FROM = 1_000_000_000_000_000n;

/** True when integer nanoseconds read back as nanoseconds (|ns| >= 10^15, the rule of validate.ts). */
function readsAsNanos(ns: bigint): boolean {
  return ns >= NANOS_FROM || ns <= -NANOS_FROM;
}

type Format = (value: unknown) => string;

const integer: Format = (value) => String(value);

const JSON_FORMATS: Record<ColumnKind, Format> = {
  u64: integer, u32: integer, u8: integer,
  ns: (value) => (readsAsNanos(value as bigint) ? String(value) : `"${encodeTimestamp(value as bigint)}"`),
  bool: (value) => (value ? 'true' : 'false'),
  utf8: (value) => JSON.stringify(value),
  mint: (value) => `"${value as string}"`, // base58: nothing to escape
  keys: (value) => `[${Array.from(value as Iterable<string>, (key) => `"${key}"`).join(',')}]`,
};

const NEEDS_QUOTES = /[",\r\n]/;

const CSV_FORMATS: Record<ColumnKind, Format> = {
  ...JSON_FORMATS,
  ns: (value) => (readsAsNanos(value as bigint) ? String(value) : encodeTimestamp(value as bigint)),
  // "" is the empty string; an empty unquoted field is null
  utf8: (value) => {
    const text = value as string;
    return text === '' ? '""' : NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  },
  mint: (value) => value as string,
  // `;`-joined; "" is the empty list (an empty unquoted field is null)
  keys: (value) => Array.from(value as Iterable<string>).join(';') || '""',
};

const encoder = new TextEncoder();
const ROWS_PER_WRITE = 16_384;

/** A writer that formats each row of each batch as one line. */
function lineWriter(sink: SinkWriter, header: string, line: (values: unknown[]) => string, width: number): FormatWriter {
  let started = false;
  const values: unknown[] = new Array(width);
  const start = async () => {
    if (!started && header) await sink.write(encoder.encode(header));
    started = true;
  };
  return {
    async write(table) {
      await start();
      for (const batch of table.batches) {
        const vectors = Array.from({ length: width }, (_, j) => batch.getChildAt(j)!);
        for (let from = 0; from < batch.numRows; from += ROWS_PER_WRITE) {
          const lines: string[] = [];
          const to = Math.min(batch.numRows, from + ROWS_PER_WRITE);
          for (let i = from; i < to; i++) {
            for (let j = 0; j < width; j++) values[j] = vectors[j].get(i);
            lines.push(line(values));
          }
          await sink.write(encoder.encode(lines.join('')));
        }
      }
    },
    async end() {
      await start();
    },
  };
}

/** NDJSON: one object per row, keys in canonical column order, null for a null optional value. */
export function ndjsonWriter(table: TableName, sink: SinkWriter): FormatWriter {
  const columns = TABLES[table].columns;
  const keys = columns.map((column, j) => `${j === 0 ? '{' : ','}${JSON.stringify(column.name)}:`);
  const formats = columns.map((column) => JSON_FORMATS[column.kind]);
  return lineWriter(sink, '', (values) => {
    let text = '';
    for (let j = 0; j < formats.length; j++) {
      const value = values[j];
      text += keys[j] + (value === null || value === undefined ? 'null' : formats[j](value));
    }
    return `${text}}\n`;
  }, columns.length);
}

/** CSV: a header of the canonical column names, then one line per row (LF line ends, RFC 4180 quoting). */
export function csvWriter(table: TableName, sink: SinkWriter): FormatWriter {
  const columns = TABLES[table].columns;
  const formats = columns.map((column) => CSV_FORMATS[column.kind]);
  const header = `${columns.map((column) => column.name).join(',')}\n`;
  return lineWriter(sink, header, (values) => {
    let text = '';
    for (let j = 0; j < formats.length; j++) {
      const value = values[j];
      if (j > 0) text += ',';
      if (value !== null && value !== undefined) text += formats[j](value);
    }
    return `${text}\n`;
  }, columns.length);
}
