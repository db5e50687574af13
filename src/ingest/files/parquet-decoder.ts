/**
 * Parquet decoding (parquet-wasm) behind an interface that a worker can host: the engine's kernel
 * worker runs it, so that decoding works on the other core while the serving thread validates and
 * commits; a reader without an engine runs the same code in its own thread. Each record batch
 * crosses as Arrow IPC stream bytes, which apache-arrow maps without copying the columns.
 *
 * Key-list columns (the write-locked and read-only accounts: most of a transactions file's bytes,
 * and read by few answers) can be left in the file: the decoder checks them where it decodes them
 * and hands over the other columns only; the reader reads them back, by row, when an answer first
 * needs them (`readRows`).
 */
import { tableFromIPC } from 'apache-arrow';
import { isKeyListField, keyListsPass } from './key-lists.js';
import { keyListColumns } from './parquet-ffi.js';
import { loadParquetWasm } from './parquet-wasm.js';
import { iterate } from './source.js';

/** Where a Parquet file is, in a form that can cross to a worker: a Node path, a Blob (a browser File), or bytes. */
export type ParquetLocation = { path: string } | { blob: Blob } | { bytes: Uint8Array };

/** What to read of an open file. */
export interface ParquetReadOptions {
  /** Rows per record batch. */
  batchRows: number;
  /** Only these columns (all when absent). */
  columns?: string[];
  /**
   * Key-list columns to check in the decoder and leave out of the batches: a batch whose lists
   * all pass (canonical List<Utf8>, at most MAX_TRANSACTION_KEYS public keys each, none null) is
   * handed over without them; one that does not, with them, so that the reader names its bad rows.
   */
  deferKeyLists?: string[];
}

/** An open file: its handle, its Arrow schema (IPC stream bytes) and the columns it leaves in the file. */
export interface OpenedParquet {
  handle: number;
  schema: Uint8Array;
  /** The `deferKeyLists` columns the file has with the canonical type. */
  deferred: string[];
}

/** Opens Parquet files and hands out their record batches, one request at a time. */
export interface ParquetDecoder {
  /**
   * Opens a file; resolves with a handle and the file's Arrow schema (IPC stream bytes). Rejects
   * with an Error (its message without the file's name) when the file is truncated or unreadable.
   */
  open(location: ParquetLocation, options: ParquetReadOptions): Promise<OpenedParquet>;
  /**
   * The next record batch as Arrow IPC stream bytes (two streams of the same rows when its
   * deferred columns are handed over: the other columns, then those), or undefined after the last.
   */
  next(handle: number): Promise<Uint8Array[] | undefined>;
  /** Frees the file (also done by `next` at the end). */
  close(handle: number): Promise<void>;
  /** Rows [from, to) of a file's `columns`, as Arrow IPC stream bytes. */
  readRows(location: ParquetLocation, columns: string[], from: number, to: number): Promise<Uint8Array>;
}

const PAR1 = [0x50, 0x41, 0x52, 0x31];

/**
 * Why a Parquet file (starting with `PAR1`) has no footer to read, if it has none: it is too short
 * to hold one, or does not end with the magic bytes (a file cut short loses its footer, which is
 * where Parquet keeps its schema and the place of every row group).
 */
export async function truncatedParquet(blob: Blob): Promise<string | undefined> {
  const size = blob.size;
  const magicAt = async (at: number) => {
    const bytes = new Uint8Array(await blob.slice(at, at + 4).arrayBuffer());
    return bytes.length === 4 && PAR1.every((byte, i) => bytes[i] === byte);
  };
  if (!await magicAt(0)) return undefined; // not Parquet at all: parquet-wasm says so
  if (size >= 12 && await magicAt(size - 4)) return undefined;
  return `truncated Parquet file: it starts with the PAR1 magic bytes but does not end with them (${size} bytes; `
    + 'the footer that holds its schema and row groups is missing)';
}

async function blobOf(location: ParquetLocation): Promise<Blob> {
  if ('blob' in location) return location.blob;
  if ('bytes' in location) return new Blob([location.bytes as BlobPart]);
  // Node only, loaded only for a path, so that browsers never load node:fs
  const { pathSource } = await import('./node-source.js');
  return pathSource(location.path).blob();
}

type StreamedBatch = {
  numRows: number;
  intoIPCStream(): Uint8Array;
  intoFFI(): { arrayAddr(): number; free(): void };
};

interface OpenFile {
  free(): void;
  batches: AsyncIterator<StreamedBatch>;
  /** The deferred columns' batches, in step with `batches`, and where the file is. */
  deferred?: { columns: string[]; batches: AsyncIterator<StreamedBatch>; location: ParquetLocation };
  /** Rows handed out so far. */
  rows: number;
}

type ParquetFile = Awaited<ReturnType<Awaited<ReturnType<typeof loadParquetWasm>>['ParquetFile']['fromFile']>>;

/** The file at `location`, opened by parquet-wasm (the caller frees it). */
async function openFile(location: ParquetLocation): Promise<ParquetFile> {
  const blob = await blobOf(location);
  const truncated = await truncatedParquet(blob);
  if (truncated) throw new Error(truncated);
  const parquet = await loadParquetWasm();
  try {
    return await parquet.ParquetFile.fromFile(blob);
  } catch (error) {
    throw new Error(`not a readable Parquet file: ${String((error as Error)?.message ?? error)}`);
  }
}

/** Whether every list of every column of a batch of key lists passes the check (read in parquet-wasm's memory; the batch is consumed). */
async function keyListsHold(batch: StreamedBatch): Promise<boolean> {
  const ffi = batch.intoFFI();
  try {
    const columns = keyListColumns((await loadParquetWasm()).wasmMemory().buffer, ffi.arrayAddr());
    return columns !== undefined && columns.every(keyListsPass);
  } finally {
    ffi.free();
  }
}

/** A decoder running parquet-wasm in this thread (the kernel worker hosts one). */
export function createParquetDecoder(): ParquetDecoder {
  const files = new Map<number, OpenFile>();
  let nextHandle = 1;
  const close = async (handle: number) => {
    files.get(handle)?.free();
    files.delete(handle);
  };
  return {
    async open(location, options) {
      const file = await openFile(location);
      try {
        const schema = file.schema().intoIPCStream();
        const fields = tableFromIPC(schema).schema.fields;
        const names = options.columns ?? fields.map((f) => f.name);
        const deferred = fields.filter((f) => options.deferKeyLists?.includes(f.name) && names.includes(f.name) && isKeyListField(f)).map((f) => f.name);
        const read = (columns?: string[]) =>
          file.stream({ batchSize: options.batchRows, concurrency: 1, ...(columns ? { columns } : {}) }) as Promise<ReadableStream<StreamedBatch>>;
        const stream = await read(options.columns || deferred.length > 0 ? names.filter((n) => !deferred.includes(n)) : undefined);
        const handle = nextHandle++;
        files.set(handle, {
          free: () => file.free(),
          batches: iterate(stream),
          deferred: deferred.length === 0 ? undefined : { columns: deferred, batches: iterate(await read(deferred)), location },
          rows: 0,
        });
        return { handle, schema, deferred };
      } catch (error) {
        file.free();
        throw new Error(`not a readable Parquet file: ${String((error as Error)?.message ?? error)}`);
      }
    },
    async next(handle) {
      const file = files.get(handle);
      if (!file) return undefined;
      const next = await file.batches.next();
      if (next.done) {
        await close(handle);
        return undefined;
      }
      const rows = next.value.numRows; // read before intoIPCStream, which consumes the batch
      const first = file.rows;
      file.rows += rows;
      const bytes = next.value.intoIPCStream();
      if (!file.deferred) return [bytes];
      const deferred = await file.deferred.batches.next();
      // both streams cut the same row groups into batches of the same size
      if (deferred.done || deferred.value.numRows !== rows) throw new Error('the deferred columns\' batches do not match the others\'');
      if (await keyListsHold(deferred.value)) return [bytes];
      // handed over for the reader to name the bad rows (read again: the check consumed the batch)
      return [bytes, await readRows(file.deferred.location, file.deferred.columns, first, first + rows)];
    },
    close,
    readRows,
  };
}

/** Rows [from, to) of a file's `columns`, as Arrow IPC stream bytes. */
async function readRows(location: ParquetLocation, columns: string[], from: number, to: number): Promise<Uint8Array> {
  const file = await openFile(location);
  try {
    const table = await file.read({ columns, offset: from, limit: to - from, batchSize: Math.max(1, to - from) });
    return table.intoIPCStream();
  } finally {
    file.free();
  }
}
