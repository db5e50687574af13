/**
 * Parquet decoding (parquet-wasm) behind an interface that a worker can host: the engine's kernel
 * worker runs it, so that decoding works on the other core while the serving thread validates and
 * commits; a reader without an engine runs the same code in its own thread. Each record batch
 * crosses as Arrow IPC stream bytes, which apache-arrow maps without copying the columns.
 */
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
}

/** Opens Parquet files and hands out their record batches, one request at a time. */
export interface ParquetDecoder {
  /**
   * Opens a file; resolves with a handle and the file's Arrow schema (IPC stream bytes). Rejects
   * with an Error (its message without the file's name) when the file is truncated or unreadable.
   */
  open(location: ParquetLocation, options: ParquetReadOptions): Promise<{ handle: number; schema: Uint8Array }>;
  /** The next record batch as Arrow IPC stream bytes, or undefined after the last. */
  next(handle: number): Promise<Uint8Array | undefined>;
  /** Frees the file (also done by `next` at the end). */
  close(handle: number): Promise<void>;
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

interface OpenFile {
  free(): void;
  batches: AsyncIterator<{ intoIPCStream(): Uint8Array }>;
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
      const blob = await blobOf(location);
      const truncated = await truncatedParquet(blob);
      if (truncated) throw new Error(truncated);
      const parquet = await loadParquetWasm();
      let file;
      try {
        file = await parquet.ParquetFile.fromFile(blob);
      } catch (error) {
        throw new Error(`not a readable Parquet file: ${String((error as Error)?.message ?? error)}`);
      }
      try {
        const schema = file.schema().intoIPCStream();
        const stream = await file.stream({ batchSize: options.batchRows, concurrency: 1, ...(options.columns ? { columns: options.columns } : {}) });
        const handle = nextHandle++;
        const opened = file;
        files.set(handle, { free: () => opened.free(), batches: iterate(stream as ReadableStream<{ intoIPCStream(): Uint8Array }>) });
        return { handle, schema };
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
      return next.value.intoIPCStream();
    },
    close,
  };
}
