/**
 * A file's batches in slot order, whatever order its rows are in. Blocks commit in slot order and a
 * slot once, so a row read after a newer slot was committed would be lost: an unordered file must
 * be sorted before any of it is committed. A first pass reads only the slot column (Parquet and
 * Arrow read nothing else; text files are parsed twice); an ordered file (the usual case, and what
 * `chainlens generate` writes) then streams as before, in bounded memory. An unordered one is read
 * whole and sorted, with a warning: memory then holds the file.
 */
import { tableFromIPC, RecordBatchReader, type Table } from 'apache-arrow';
import { rowsToTable, tableToRows } from '../arrow.js';
import { blobFileHandle } from './arrow-ipc.js';
import { detectFormat, isArrowFile } from './detect.js';
import { localParquetDecoder } from './parquet.js';
import { openSource, parquetLocation, readTableFile, type ReadTableOptions, type TableFileInput } from './read.js';
import { DEFAULT_BATCH_ROWS, type FileBatch } from './reader.js';
import { wordsAscending, wordsOf } from '../../schema/u64-words.js';

/** Reads `input` like readTableFile, in slot order; `warn` hears when it had to sort. */
export async function* readInSlotOrder(
  input: TableFileInput, options: ReadTableOptions, warn: (message: string) => void,
): AsyncGenerator<FileBatch> {
  // a one-shot stream cannot be read twice: its batches are held while they are checked
  if (input.stream === undefined && (await inSlotOrder(input, options))) {
    yield* readTableFile(input, options);
    return;
  }
  // held whole and sorted: every column read (rows made into objects keep no deferred columns)
  const batches: FileBatch[] = [];
  for await (const batch of readTableFile(input, { ...options, keyListsInFile: false, textHeld: false })) batches.push(batch);
  if (await slotsAscending(batches.map((b) => slotValues(b.rows)))) {
    yield* batches;
    return;
  }
  warn(`${input.name}: rows not in slot order; read whole and sorted before loading`);
  yield* sortBySlot(batches, options.batchRows ?? DEFAULT_BATCH_ROWS);
}

/**
 * Whether the file's rows are in slot order: a Parquet file's u64 slot column checked where the
 * decoder decodes it (no batch handed over: the pass over the hour's transactions file moved about
 * 100 MB of slots to this thread), any other file's slots read here.
 */
async function inSlotOrder(input: TableFileInput, options: ReadTableOptions): Promise<boolean> {
  const source = await openSource(input);
  const format = options.format ?? detectFormat(input.name, await source.head(8));
  if (format === 'parquet') {
    const decoder = options.parquet ?? localParquetDecoder();
    // a file this pass cannot read counts as in order, as below
    const told = await parquetLocation(input, source).then((location) => decoder.ascending(location, 'slot')).catch(() => true);
    if (told !== undefined) return told;
  }
  return slotsAscending(slotColumns(input, options, source, format));
}

/**
 * Whether the file's slot column never decreases (a file without one, such as tokens, is in order).
 * A file this pass cannot read counts as in order: the reading pass then reports what is wrong with
 * it, naming the file, as it would without this pass.
 */
async function slotsAscending(columns: AsyncIterable<SlotValues> | Iterable<SlotValues>): Promise<boolean> {
  let previous: bigint | number | undefined;
  try {
    for await (const slots of columns) {
      if (slots instanceof BigUint64Array) {
        // compared as 32-bit words: a BigInt made per batch, not per row
        if (slots.length === 0) continue;
        if (previous !== undefined && slots[0]! < previous) return false;
        if (!wordsAscending(wordsOf(slots))) return false;
        previous = slots[slots.length - 1]!;
        continue;
      }
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        if (slot === null || slot === undefined) continue; // an invalid row: rejected whatever its place
        if (previous !== undefined && slot < previous) return false;
        previous = slot as bigint | number;
      }
    }
  } catch {
    return true;
  }
  return true;
}

type SlotValues = ArrayLike<bigint | number | null | undefined>;

/** The slot column of a file (opened as `source`, in `format`), batch by batch, reading as little as its format allows. */
async function* slotColumns(
  input: TableFileInput, options: ReadTableOptions, source: Awaited<ReturnType<typeof openSource>>, format: ReturnType<typeof detectFormat>,
): AsyncGenerator<SlotValues> {
  if (format === 'parquet') {
    const decoder = options.parquet ?? localParquetDecoder();
    const { handle, schema } = await decoder.open(await parquetLocation(input, source), { batchRows: DEFAULT_BATCH_ROWS, columns: ['slot'] });
    try {
      if (!tableFromIPC(schema).schema.fields.some((f) => f.name === 'slot')) return;
      // the next batch asked before this one is checked: the decoder decodes while this thread checks
      // (one at a time, the pass kept both threads half idle for over a second of the hour's load)
      for (let next = decoder.next(handle); ;) {
        const bytes = await next;
        if (bytes === undefined) return;
        next = decoder.next(handle);
        next.catch(() => undefined); // thrown where it is awaited, or moot once the pass has decided
        yield slotValues(tableFromIPC(bytes[0]!));
      }
    } finally {
      await decoder.close(handle);
    }
  } else if (format === 'arrow') {
    const head = await source.head(6);
    const reader = await RecordBatchReader.from((isArrowFile(head) ? blobFileHandle(await source.blob()) : source.chunks()) as AsyncIterable<Uint8Array>);
    await reader.open();
    for await (const batch of reader as AsyncIterable<{ getChild(name: string): { toArray(): SlotValues } | null }>) {
      const column = batch.getChild('slot');
      if (!column) return;
      yield column.toArray();
    }
  } else {
    // text: parsed and validated (only valid rows' slots count)
    for await (const batch of readTableFile(input, options)) {
      yield slotValues(batch.rows);
    }
  }
}

function slotValues(table: Table): SlotValues {
  const column = table.getChild('slot');
  if (!column) return [];
  return column.nullCount > 0 ? column.toJSON() as SlotValues : column.toArray() as SlotValues;
}

/**
 * The rows of every batch, stably sorted by slot, cut into batches of `batchRows`. Each row keeps its
 * row number; the rejections go with the first batch and the end-of-file note with the last, so
 * that every batch still reconciles (read = rows + rejections).
 */
function* sortBySlot(batches: readonly FileBatch[], batchRows: number): Generator<FileBatch> {
  const first = batches[0]!;
  const table = first.table;
  const rows: Record<string, unknown>[] = [];
  const numbers: number[] = [];
  for (const batch of batches) {
    rows.push(...(tableToRows(table, batch.rows) as unknown as Record<string, unknown>[]));
    for (let i = 0; i < batch.rows.numRows; i++) numbers.push(batch.rowNumbers?.[i] ?? Number.NaN);
  }
  const order = rows.map((_, i) => i);
  const slot = (i: number) => rows[i]!.slot as bigint;
  order.sort((a, b) => (slot(a) < slot(b) ? -1 : slot(a) > slot(b) ? 1 : a - b));
  const rejections = batches.flatMap((b) => b.rejections);
  const rejectedSlots = batches.flatMap((b) => b.rejectedSlots ?? b.rejections.map(() => undefined));
  const truncatedAt = batches.at(-1)!.truncatedAt;
  for (let at = 0; at === 0 || at < order.length; at += batchRows) {
    const part = order.slice(at, at + batchRows);
    const isFirst = at === 0;
    const isLast = at + batchRows >= order.length;
    yield {
      table,
      source: first.source,
      rows: rowsToTable(table, part.map((i) => rows[i]!) as never[]),
      read: part.length + (isFirst ? rejections.length : 0),
      rowNumbers: part.map((i) => numbers[i]!),
      rejections: isFirst ? rejections : [],
      rejectedSlots: isFirst ? rejectedSlots : [],
      ...(isLast && truncatedAt !== undefined ? { truncatedAt } : {}),
    };
  }
}
