/**
 * Parquet reader. The file is decoded by a ParquetDecoder (parquet-wasm; in an engine, in its kernel
 * worker, on the other core), which reads it by random access (a Node path or a browser File, never
 * whole into memory) and hands over its row groups as Arrow record batches of at most `batchRows`
 * rows, the next requested as soon as one is handed over, so that the decoder works while this
 * thread validates: memory holds about two batches. Each batch is validated here like any other
 * Arrow input.
 *
 * Asked to (`keyListsInFile`), a transactions file's key-list columns stay in the file: the decoder
 * checks them and hands over the other columns; the batches name those columns as deferred, and the
 * resident transactions read the write-locked accounts back when a local fee market first needs them.
 * Asked to (`textHeld`), its text columns (signature, signer, program: most of the other bytes,
 * and kept for each block's best fee payers only) stay with the decoder likewise, checked there and
 * held while the file loads: a commit takes the rows it keeps (`DeferredColumns.text`). Asked to
 * as well (`signaturesInFile`), a signature column the file declares required is not decoded at
 * all: the rows kept read theirs back when first answered.
 */
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { TRANSACTIONS } from '../../schema/tables.js';
import { TEXT_COLUMNS } from '../chunk-text.js';
import type { DeferredColumns } from '../validate.js';
import { joinColumns, validateRecordBatches } from './arrow-rows.js';
import { canonicalSchema } from './canonical-batch.js';
import { tableFromColumns } from './detect.js';
import { createParquetDecoder, type OpenedParquet, type ParquetDecoder, type ParquetLocation } from './parquet-decoder.js';
import type { FileBatch, ReaderContext } from './reader.js';

let inThisThread: ParquetDecoder | undefined;
/** The decoder of a reader that was given none: parquet-wasm in this thread. */
export const localParquetDecoder = (): ParquetDecoder => (inThisThread ??= createParquetDecoder());

/** The key-list columns of a transactions file, which can stay in the file. */
const KEY_LISTS = TRANSACTIONS.columns.filter((column) => column.kind === 'keys').map((column) => column.name);
/** Its text columns (chunk-text.ts), which the decoder can hold; those that are public keys; the signatures. */
const TEXT = {
  columns: [...TEXT_COLUMNS],
  publicKeys: TEXT_COLUMNS.filter((name) => TRANSACTIONS.columns.find((column) => column.name === name)!.kind === 'mint'),
  signatures: ['signature'],
};

/** What a transactions file may leave with the decoder (ReadTableOptions says what each means). */
export interface ParquetLeft {
  keyListsInFile?: boolean;
  textHeld?: boolean;
  signaturesInFile?: boolean;
}

/** What identifies this version of the file, where the platform does not check it itself (a Node path). */
async function stampOf(location: ParquetLocation): Promise<string | undefined> {
  if (!('path' in location)) return undefined; // a Blob (a browser File) fails its reads once the file changes
  const { fileStamp } = await import('./node-source.js');
  return fileStamp(location.path);
}

/** The columns a file left with the decoder, read back through it by row; the text it holds, taken from it. */
function deferredColumns(
  location: ParquetLocation, opened: OpenedParquet, source: string, decoder: ParquetDecoder, stamp: string | undefined,
): DeferredColumns {
  const { held, unread } = opened;
  const columns = [...opened.deferred, ...(held?.columns ?? []), ...unread];
  /** `read` of the columns `asked`, with the file checked to be the one loaded first. */
  const readBack = async <T>(asked: readonly string[], read: () => Promise<T>): Promise<T> => {
    const failed = (why: string) => new Error(`${source}: its ${asked.join(', ')} (left in the file at load) cannot be read back: ${why}`);
    if (stamp !== undefined && stamp !== (await stampOf(location).catch(() => 'gone'))) {
      throw failed('the file changed or went away since it was loaded');
    }
    try {
      return await read();
    } catch (error) {
      throw failed(String((error as Error)?.message ?? error));
    }
  };
  const unreadText = { columns: unread, key: `${held?.key}:unread`, signatures: unread };
  return {
    source,
    columns,
    read: async (from, to, asked = columns) => tableFromIPC(await readBack(asked, () => decoder.readRows(location, [...asked], from, to))),
    ...(held ? { text: {
      columns: held.columns,
      take: (rows: Uint32Array) => decoder.take(location, held, rows),
      ...(unread.length > 0 ? { signatures: async (rows: Uint32Array) => (await readBack(unread, () => decoder.take(location, unreadText, rows)))[0]! } : {}),
    } } : {}),
  };
}

/**
 * Reads a Parquet file into validated batches of `context.batchRows` rows read. A file that is
 * truncated or whose footer or row groups cannot be read throws an Error whose message starts with its name.
 */
export async function* readParquet(
  location: ParquetLocation, context: ReaderContext, decoder: ParquetDecoder = localParquetDecoder(),
  /** Key lists are left in the file only where it is a path or a Blob (bytes would be held whole). */
  { keyListsInFile = false, textHeld = false, signaturesInFile = false }: ParquetLeft = {},
): AsyncGenerator<FileBatch> {
  const named = (error: unknown, where = '') =>
    new Error(`${context.source}: ${where}${String((error as Error)?.message ?? error)}`);
  const open = async (deferKeyLists: boolean, holdText: boolean) => {
    try {
      return await decoder.open(location, {
        batchRows: context.batchRows, ...(deferKeyLists ? { deferKeyLists: KEY_LISTS } : {}), ...(holdText ? { holdText: { ...TEXT, signaturesInFile } } : {}),
      });
    } catch (error) {
      // the decoder's own messages say what is wrong; anything else is parquet-wasm failing on the bytes
      const told = /^(truncated|not a readable)/.test(String((error as Error)?.message));
      throw named(error, told ? '' : 'not a readable Parquet file (the decoder failed on its bytes): ');
    }
  };
  // only a transactions file leaves columns with the decoder: another one named by its table is opened whole at once
  const mayLeave = context.table === undefined || context.table === 'transactions';
  let opened = await open(mayLeave && keyListsInFile && !('bytes' in location), mayLeave && textHeld);
  let { handle } = opened;
  try {
    const schema = tableFromIPC(opened.schema).schema;
    // only a transactions file's columns are left with the decoder (another table's are not canonical columns), and only
    // where its batches can be kept as they are (the row path would read every batch's back): else opened again
    const left = opened.deferred.length > 0 || opened.held !== undefined || opened.unread.length > 0;
    const inFile = left && canonicalSchema('transactions', schema)
      && (context.table ?? tableFromColumns(schema.fields.map((f) => f.name), context.source)) === 'transactions';
    if (left && !inFile) {
      await decoder.close(handle);
      ({ handle } = opened = await open(false, false));
    }
    const deferred = inFile ? deferredColumns(location, opened, context.source, decoder, await stampOf(location)) : undefined;
    async function* batches(): AsyncGenerator<RecordBatch> {
      let rows = 0;
      let next = decoder.next(handle);
      for (;;) {
        let parts;
        try {
          parts = await next;
        } catch (error) {
          throw named(error, `not a readable Parquet file: a row group after ${rows} rows cannot be read: `);
        }
        if (parts === undefined) return;
        // the decoder decodes the next batch while this one is validated and committed
        next = decoder.next(handle);
        next.catch(() => undefined); // thrown where it is awaited
        const [own, handedOver] = parts.map((bytes) => tableFromIPC(bytes).batches);
        for (const batch of own!) rows += batch.numRows;
        // a batch whose deferred columns failed the decoder's check comes with them, for the row path
        yield* handedOver ? own!.flatMap((batch) => joinColumns(batch, handedOver)) : own!;
      }
    }
    yield* validateRecordBatches(schema, batches(), context, undefined, deferred);
  } finally {
    await decoder.close(handle);
  }
}
