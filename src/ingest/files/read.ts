/**
 * `readTableFile`: one dump file of any supported format into validated canonical batches, streamed.
 */
import type { TableName } from '../../schema/tables.js';
import { readArrowIpc } from './arrow-ipc.js';
import { readCsv } from './csv.js';
import { detectFormat, tableFromName, type FileFormat } from './detect.js';
import { readNdjson } from './ndjson.js';
import { readParquet } from './parquet.js';
import type { ParquetDecoder, ParquetLocation } from './parquet-decoder.js';
import { DEFAULT_BATCH_ROWS, type FileBatch, type ReaderContext } from './reader.js';
import { decodeUtf8 } from './text.js';
import { blobSource, bytesSource, streamSource, type ByteSource, type ByteStreamLike } from './source.js';

/** One input file: its name (for detection and errors) and exactly one of its bytes, path, stream or blob. */
export interface TableFileInput {
  name: string;
  bytes?: Uint8Array;
  /** Node only: opened with fs streams (and fs.openAsBlob for Parquet). */
  path?: string;
  stream?: ByteStreamLike;
  /** A Blob or browser File: random access without reading it whole. */
  blob?: Blob;
  /**
   * The folder the user named that this file was found in (absent for a file named by itself). A
   * file found in a folder is skipped with a warning when it is not loadable; one named by itself is
   * an error then.
   */
  folder?: string;
  /** Why the folder's expansion already knows this entry is not loadable (a broken link, a loop...). */
  skip?: string;
}

/** Options of `readTableFile`. */
export interface ReadTableOptions {
  /** Rows read per yielded batch (default 65,536); every batch but the last has exactly this many. */
  batchRows?: number;
  /** The table, when neither the name nor the columns should decide. */
  table?: TableName;
  /** The format, when neither the extension nor the magic bytes should decide. */
  format?: FileFormat;
  /** Who decodes Parquet (an engine's kernel worker); parquet-wasm in this thread when absent. */
  parquet?: ParquetDecoder;
  /**
   * A Parquet transactions file's key-list columns are checked where decoded and left in the file,
   * its batches naming them as deferred (an engine's load: the accounts are read back when first
   * needed). Default false: every column is in the batches.
   */
  keyListsInFile?: boolean;
  /**
   * A Parquet transactions file's text columns (signature, signer, program) are checked where
   * decoded and held there while the file loads, its batches naming them as deferred: a commit
   * takes the rows it keeps (an engine's load). Default false: every column is in the batches.
   */
  textHeld?: boolean;
  /**
   * With `textHeld`, a signature column the file declares required (nothing to check: a value is
   * there) is not even decoded but left in the file, read back by row when first answered. Default
   * false: held with the other text.
   */
  signaturesInFile?: boolean;
}

/** The bytes of an input, whichever way it holds them. */
export async function openSource(input: TableFileInput): Promise<ByteSource> {
  const given = [input.bytes, input.path, input.stream, input.blob].filter((x) => x !== undefined).length;
  if (given !== 1) throw new Error(`${input.name}: give exactly one of bytes, path, stream or blob`);
  if (input.bytes) return bytesSource(input.bytes);
  if (input.blob) return blobSource(input.blob);
  if (input.stream) return streamSource(input.stream);
  // Loaded only when a path is given, so that non-Node platforms never load node:fs.
  const { pathSource } = await import('./node-source.js');
  return pathSource(input.path!);
}

/** Where a Parquet input is, in a form a worker can be given (a one-shot stream is read into bytes). */
export async function parquetLocation(input: TableFileInput, source: ByteSource): Promise<ParquetLocation> {
  if (input.path !== undefined) return { path: input.path };
  if (input.blob !== undefined) return { blob: input.blob };
  if (input.bytes !== undefined) return { bytes: input.bytes };
  return { bytes: new Uint8Array(await (await source.blob()).arrayBuffer()) };
}

/** The whole content of an input as text (UTF-8). */
export async function readText(input: TableFileInput): Promise<string> {
  let text = '';
  for await (const piece of decodeUtf8((await openSource(input)).chunks())) text += piece;
  return text;
}

/**
 * Reads one file into batches of the canonical schema, valid rows only, with the rejected rows as
 * data. Memory is bounded by the batch size (Parquet: by a row group), not by the file:
 * - NDJSON, CSV: the bytes stream through an incremental UTF-8 decoder and a line/record splitter;
 * - Arrow IPC: one record batch at a time (a stream sequentially, a file through its footer);
 * - Parquet: random access through a Blob, row group by row group.
 * The format comes from the extension or the magic bytes, the table from the name or the columns.
 * Each batch reconciles: read = rows.numRows + rejections.length. A file that cannot be read at all
 * (unknown format or table, a corrupt Parquet footer, a truncated Parquet or Arrow IPC file, an Arrow
 * IPC stream that ends inside a message) throws an Error whose message starts with its name.
 */
export async function* readTableFile(input: TableFileInput, options: ReadTableOptions = {}): AsyncGenerator<FileBatch> {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new RangeError(`batchRows must be a positive integer, got ${batchRows}`);
  const source = await openSource(input);
  const format = options.format ?? detectFormat(input.name, await source.head(8));
  const context: ReaderContext = { source: input.name, table: options.table ?? tableFromName(input.name), batchRows };
  switch (format) {
    case 'ndjson': yield* readNdjson(source.chunks(), context); break;
    case 'csv': yield* readCsv(source.chunks(), context); break;
    case 'arrow': yield* readArrowIpc(source, context); break;
    case 'parquet': yield* readParquet(await parquetLocation(input, source), context, options.parquet, options); break;
  }
}
