/**
 * `createTableWriter`: canonical tables, in chunks, to a file in any supported format, streamed to a
 * sink (a WritableStream, an object with write/close, a callback; a Node path via node-sink.ts).
 */
import type { Table } from 'apache-arrow';
import type { TableName } from '../../schema/tables.js';
import { conformTable, rowsToTable, type RowOf } from '../arrow.js';
import type { FileFormat } from './detect.js';
import { sinkWriter, type ByteSink } from './sink.js';
import { arrowWriter } from './write-arrow.js';
import { parquetWriter, type ParquetWriteOptions } from './write-parquet.js';
import { csvWriter, ndjsonWriter, type FormatWriter } from './write-text.js';

/** Options of `createTableWriter`. */
export interface TableWriterOptions extends ParquetWriteOptions {
  /** Arrow IPC file (`ARROW1`, with a footer; the default) or stream format. */
  arrowFormat?: 'file' | 'stream';
}

/** Writes one table's file chunk by chunk. Calls must not overlap: await each before the next. */
export interface TableWriter<T extends TableName> {
  /** Appends a chunk: a canonical Arrow Table (extra columns ignored) or typed rows. */
  write(chunk: Table | readonly RowOf<T>[]): Promise<void>;
  /** Ends the file (Arrow footer, Parquet footer) and closes the sink. */
  close(): Promise<void>;
}

/**
 * A writer of one table's file in one format. Every format streams: NDJSON and CSV write each chunk as
 * text, Arrow each record batch, Parquet each row group once full (see write-parquet.ts). u64 values
 * stay exact in every format; timestamps are int64 nanoseconds (Int64 columns marked as nanoseconds in
 * Arrow and Parquet; integers in NDJSON and CSV, see write-text.ts for the one exception).
 */
export function createTableWriter<T extends TableName>(
  format: FileFormat, table: T, sink: ByteSink, options: TableWriterOptions = {},
): TableWriter<T> {
  const out = sinkWriter(sink);
  const writers: Record<FileFormat, () => FormatWriter> = {
    ndjson: () => ndjsonWriter(table, out),
    csv: () => csvWriter(table, out),
    arrow: () => arrowWriter(table, out, options.arrowFormat),
    parquet: () => parquetWriter(table, out, options),
  };
  const writer = writers[format]();
  let closed = false;
  return {
    async write(chunk) {
      if (closed) throw new Error(`${table} ${format} writer: write after close`);
      await writer.write(Array.isArray(chunk) ? rowsToTable(table, chunk as readonly RowOf<T>[]) : conformTable(table, chunk as Table));
    },
    async close() {
      if (closed) return;
      closed = true;
      await writer.end();
      await out.close();
    },
  };
}
