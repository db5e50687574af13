/**
 * Parquet reader. The file is decoded by a ParquetDecoder (parquet-wasm; in an engine, in its kernel
 * worker, on the other core), which reads it by random access (a Node path or a browser File, never
 * whole into memory) and hands over its row groups as Arrow record batches of at most `batchRows`
 * rows, one request at a time: memory holds about one row group. Each batch is validated here like
 * any other Arrow input.
 */
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { validateRecordBatches } from './arrow-rows.js';
import { createParquetDecoder, type ParquetDecoder, type ParquetLocation } from './parquet-decoder.js';
import type { FileBatch, ReaderContext } from './reader.js';

let inThisThread: ParquetDecoder | undefined;
/** The decoder of a reader that was given none: parquet-wasm in this thread. */
export const localParquetDecoder = (): ParquetDecoder => (inThisThread ??= createParquetDecoder());

/**
 * Reads a Parquet file into validated batches of `context.batchRows` rows read. A file that is
 * truncated or whose footer or row groups cannot be read throws an Error whose message starts with its name.
 */
export async function* readParquet(
  location: ParquetLocation, context: ReaderContext, decoder: ParquetDecoder = localParquetDecoder(),
): AsyncGenerator<FileBatch> {
  const named = (error: unknown, where = '') =>
    new Error(`${context.source}: ${where}${String((error as Error)?.message ?? error)}`);
  let opened;
  try {
    opened = await decoder.open(location, { batchRows: context.batchRows });
  } catch (error) {
    // the decoder's own messages say what is wrong; anything else is parquet-wasm failing on the bytes
    const told = /^(truncated|not a readable)/.test(String((error as Error)?.message));
    throw named(error, told ? '' : 'not a readable Parquet file (the decoder failed on its bytes): ');
  }
  const { handle } = opened;
  try {
    const schema = tableFromIPC(opened.schema).schema;
    async function* batches(): AsyncGenerator<RecordBatch> {
      let rows = 0;
      for (;;) {
        let bytes;
        try {
          bytes = await decoder.next(handle);
        } catch (error) {
          throw named(error, `not a readable Parquet file: a row group after ${rows} rows cannot be read: `);
        }
        if (bytes === undefined) return;
        const read = tableFromIPC(bytes).batches;
        for (const batch of read) rows += batch.numRows;
        yield* read;
      }
    }
    yield* validateRecordBatches(schema, batches(), context);
  } finally {
    await decoder.close(handle);
  }
}
