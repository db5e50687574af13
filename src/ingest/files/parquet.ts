/**
 * Parquet reader over parquet-wasm. The file is opened as a Blob (random access: a browser File, a
 * Node file through fs.openAsBlob; bytes in memory are wrapped), its footer read, then its row groups
 * streamed as Arrow record batches of at most `batchRows` rows, one request at a time: memory holds
 * about one row group, never the whole file. Each batch crosses from wasm memory as Arrow IPC and is
 * validated like any other Arrow input.
 */
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { validateRecordBatches } from './arrow-rows.js';
import { loadParquetWasm } from './parquet-wasm.js';
import type { FileBatch, ReaderContext } from './reader.js';
import { iterate } from './source.js';

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

/**
 * Reads a Parquet file into validated batches of `context.batchRows` rows read. A file that is
 * truncated or whose footer or row groups cannot be read throws an Error whose message starts with its name.
 */
export async function* readParquet(blob: Blob, context: ReaderContext): AsyncGenerator<FileBatch> {
  const truncated = await truncatedParquet(blob);
  if (truncated) throw new Error(`${context.source}: ${truncated}`);
  const parquet = await loadParquetWasm();
  let file;
  try {
    file = await parquet.ParquetFile.fromFile(blob);
  } catch (error) {
    throw new Error(`${context.source}: not a readable Parquet file: ${String((error as Error)?.message ?? error)}`);
  }
  try {
    const schema = tableFromIPC(file.schema().intoIPCStream()).schema;
    const stream = await file.stream({ batchSize: context.batchRows, concurrency: 1 });
    async function* batches(): AsyncGenerator<RecordBatch> {
      let rows = 0;
      const wasmBatches = iterate(stream as ReadableStream<{ intoIPCStream(): Uint8Array }>);
      for (;;) {
        let next;
        try {
          next = await wasmBatches.next();
          if (next.done) return;
          const read = tableFromIPC(next.value.intoIPCStream()).batches;
          for (const batch of read) rows += batch.numRows;
          yield* read;
        } catch (error) {
          throw new Error(`${context.source}: not a readable Parquet file: a row group after ${rows} rows cannot be read: `
            + String((error as Error)?.message ?? error));
        }
      }
    }
    yield* validateRecordBatches(schema, batches(), context);
  } finally {
    file.free();
  }
}
