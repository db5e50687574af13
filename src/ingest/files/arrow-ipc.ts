/**
 * Arrow IPC reader, one record batch at a time, for both formats:
 * - the stream format is read sequentially from the byte chunks;
 * - the file format (`ARROW1` ... footer) is read through its footer with random access over a Blob
 *   (a browser File, a Node file through fs.openAsBlob, bytes in memory). It cannot be read
 *   sequentially in general: apache-arrow's own file writer leaves the schema message out of the
 *   body and keeps it only in the footer.
 * Dictionary batches are handled by apache-arrow.
 */
import { RecordBatchReader } from 'apache-arrow';
import { validateRecordBatches } from './arrow-rows.js';
import { isArrowFile } from './detect.js';
import type { FileBatch, ReaderContext } from './reader.js';
import type { ByteSource } from './source.js';

/**
 * A Blob dressed as the file handle apache-arrow's random-access reader takes (it checks for `stat`
 * and a numeric `fd`, then calls `read(buffer, offset, length, position)` and `close()`).
 */
export function blobFileHandle(blob: Blob) {
  return {
    fd: -1,
    stat: async () => ({ size: blob.size }),
    async read(buffer: Uint8Array, offset: number, length: number, position: number) {
      const bytes = new Uint8Array(await blob.slice(position, position + length).arrayBuffer());
      buffer.set(bytes, offset);
      return { bytesRead: bytes.length, buffer };
    },
    close: async () => {},
  };
}

/** Reads an Arrow IPC file or stream into validated batches of `context.batchRows` rows read. */
export async function* readArrowIpc(source: ByteSource, context: ReaderContext): AsyncGenerator<FileBatch> {
  let reader;
  try {
    const input = isArrowFile(await source.head(6)) ? blobFileHandle(await source.blob()) : source.chunks();
    reader = await RecordBatchReader.from(input as AsyncIterable<Uint8Array>);
    await reader.open();
  } catch (error) {
    throw new Error(`${context.source}: not a readable Arrow IPC file or stream: ${(error as Error).message}`);
  }
  if (!reader.schema) return; // empty input: no schema, no rows
  try {
    yield* validateRecordBatches(reader.schema, reader, context);
  } finally {
    await reader.cancel(); // closes the byte source
  }
}
