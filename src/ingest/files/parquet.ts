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

/** Reads a Parquet file into validated batches of `context.batchRows` rows read. */
export async function* readParquet(blob: Blob, context: ReaderContext): AsyncGenerator<FileBatch> {
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
      for await (const wasmBatch of iterate(stream as ReadableStream<{ intoIPCStream(): Uint8Array }>)) {
        yield* tableFromIPC(wasmBatch.intoIPCStream()).batches;
      }
    }
    yield* validateRecordBatches(schema, batches(), context);
  } finally {
    file.free();
  }
}
