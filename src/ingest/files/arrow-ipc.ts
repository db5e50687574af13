/**
 * Arrow IPC reader, one record batch at a time, for both formats:
 * - the stream format is read sequentially from the byte chunks;
 * - the file format (`ARROW1` ... footer) is read through its footer with random access over a Blob
 *   (a browser File, a Node file through fs.openAsBlob, bytes in memory). It cannot be read
 *   sequentially in general: apache-arrow's own file writer leaves the schema message out of the
 *   body and keeps it only in the footer.
 * Dictionary batches are handled by apache-arrow.
 */
import { RecordBatchReader, type RecordBatch } from 'apache-arrow';
import { validateRecordBatches } from './arrow-rows.js';
import { isArrowFile } from './detect.js';
import type { FileBatch, ReaderContext } from './reader.js';
import type { ByteSource } from './source.js';

/**
 * A Blob dressed as the file handle apache-arrow's random-access reader takes (it checks for `stat`
 * and a numeric `fd`, then calls `read(buffer, offset, length, position)` and `close()`).
 *
 * Reading a file takes each of its bytes about once. apache-arrow 21 loops for ever on a corrupt file
 * whose footer points at a message that is neither a record batch nor a dictionary (it reads the
 * same message again and again), so reading one place many times, or past a few times the file's
 * size in all, throws instead.
 */
export function blobFileHandle(blob: Blob) {
  let budget = 4 * blob.size + (64 << 10);
  const readsAt = new Map<number, number>();
  return {
    fd: -1,
    stat: async () => ({ size: blob.size }),
    async read(buffer: Uint8Array, offset: number, length: number, position: number) {
      const reads = (readsAt.get(position) ?? 0) + 1;
      readsAt.set(position, reads);
      budget -= length;
      if (reads > 8 || budget < 0) {
        const why = reads > 8 ? `byte ${position} was read ${reads} times` : `reads ran past 4 times its ${blob.size} bytes`;
        throw new Error(`${why}: the footer points at a message that is not a record batch`);
      }
      const bytes = new Uint8Array(await blob.slice(position, position + length).arrayBuffer());
      buffer.set(bytes, offset);
      return { bytesRead: bytes.length, buffer };
    },
    close: async () => {},
  };
}

/** apache-arrow's message when the bytes end inside a message (its metadata or body): the input was cut. */
const CUT_SHORT = /Expected to read \d+ (metadata bytes|bytes for message body), but only read \d+/;

/** Bytes of the file format's end: the footer length (int32) and the magic `ARROW1`. */
const FILE_TAIL = 10;

/**
 * Why an Arrow IPC file (starting with `ARROW1`) cannot be read through its footer, if it cannot: it
 * is too short to hold one, or does not end with the magic bytes (a file cut short loses its footer,
 * which apache-arrow then reads as garbage: "Cannot read properties of null").
 */
export async function truncatedArrowFile(blob: Blob): Promise<string | undefined> {
  const size = blob.size;
  const tail = size >= 8 + FILE_TAIL ? new Uint8Array(await blob.slice(size - 6).arrayBuffer()) : undefined;
  if (tail && isArrowFile(tail)) return undefined;
  return `truncated Arrow IPC file: it starts with the ARROW1 magic bytes but does not end with them (${size} bytes; `
    + 'the footer that locates its record batches is missing)';
}

/** An Error naming the file for a failure of apache-arrow on it: truncated when the bytes ended mid-message. */
function invalid(context: ReaderContext, error: unknown, rows: number | undefined): Error {
  const reason = String((error as Error)?.message ?? error);
  const where = rows === undefined ? '' : ` after ${rows} rows`;
  return CUT_SHORT.test(reason)
    ? new Error(`${context.source}: truncated Arrow IPC stream: it ends inside a message${where} (${reason})`)
    : new Error(`${context.source}: not a valid Arrow IPC file or stream${where} (truncated or corrupt?): ${reason}`);
}

/**
 * The record batches of an open reader. A stream that ends inside a message ends there, its rows
 * up to the cut kept and the cut told in `cut` (the file is then reported truncated, as a text file
 * that ends mid-row is); any other error of apache-arrow's becomes an Error naming the file and
 * the rows read before it.
 */
async function* namedBatches(reader: AsyncIterable<RecordBatch>, context: ReaderContext, cut: { rows?: number }): AsyncGenerator<RecordBatch> {
  const batches = reader[Symbol.asyncIterator]();
  let rows = 0;
  for (;;) {
    let next: IteratorResult<RecordBatch>;
    try {
      next = await batches.next();
    } catch (error) {
      if (!CUT_SHORT.test(String((error as Error)?.message ?? error))) throw invalid(context, error, rows);
      cut.rows = rows;
      return;
    }
    if (next.done) return;
    rows += next.value.numRows;
    yield next.value;
  }
}

/**
 * Reads an Arrow IPC file or stream into validated batches of `context.batchRows` rows read. A file
 * or stream that is truncated or not valid Arrow IPC throws an Error whose message starts with its
 * name (a stream cut between two messages cannot be told from a whole one: it ends there).
 */
export async function* readArrowIpc(source: ByteSource, context: ReaderContext): AsyncGenerator<FileBatch> {
  const blob = isArrowFile(await source.head(6)) ? await source.blob() : undefined;
  const truncated = blob && await truncatedArrowFile(blob);
  if (truncated) throw new Error(`${context.source}: ${truncated}`);
  let reader;
  try {
    reader = await RecordBatchReader.from((blob ? blobFileHandle(blob) : source.chunks()) as AsyncIterable<Uint8Array>);
    await reader.open();
  } catch (error) {
    throw invalid(context, error, undefined);
  }
  if (!reader.schema) return; // empty input: no schema, no rows
  try {
    const cut: { rows?: number } = {};
    yield* validateRecordBatches(reader.schema, namedBatches(reader, context, cut), context, () => cut.rows);
  } finally {
    await reader.cancel(); // closes the byte source
  }
}
