/**
 * Parquet decoding (parquet-wasm) behind an interface that a worker can host: the engine's kernel
 * worker runs it, so that decoding works on the other core while the serving thread validates and
 * commits; a reader without an engine runs the same code in its own thread. Each record batch
 * crosses as Arrow IPC stream bytes, which apache-arrow maps without copying the columns.
 *
 * Key-list columns (the write-locked and read-only accounts: most of a transactions file's bytes,
 * and read by few answers) can be left in the file: the decoder checks them where it decodes them
 * and hands over the other columns only; the reader reads them back, by row, when an answer first
 * needs them (`readRows`). Text columns (a transactions file's signatures, signers and programs:
 * most of the rest, and kept for a few rows a block) can be held: checked where decoded, kept in
 * the decoder's memory and handed over only for the rows asked (`take`); a signature column the
 * file declares required, which has nothing to check, is not decoded at all (`unread`).
 */
import { tableFromIPC, type Table } from 'apache-arrow';
import { isKeyListField, keyListsPass } from './key-lists.js';
import { keyListColumns, u64Words, utf8Columns } from './parquet-ffi.js';
import { allPublicKeysUtf8 } from '../../kernels/base58.js';
import { loadParquetWasm } from './parquet-wasm.js';
import { iterate } from './source.js';
import { pickUtf8, type Utf8Values } from '../utf8-values.js';
import { HIGH, LOW, wordsAscending } from '../../schema/u64-words.js';
import { keepSignatures, type SignatureValues } from '../signature-values.js';

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
  /**
   * Utf8 columns to check in the decoder and hold there (`take` hands over chosen rows): each
   * value present, and those of `publicKeys` base58 public keys. A batch whose values do not all
   * pass is handed over with them (and with its deferred key lists), so that the reader names its
   * bad rows. Those of `signatures` are taken as signatures are kept (signature-values.ts: packed
   * here, where the decoder works on the other core); with `signaturesInFile`, those the file
   * declares required are not decoded at all (`unread`).
   */
  holdText?: { columns: string[]; publicKeys: string[]; signatures: string[]; signaturesInFile?: boolean };
}

/** The held text columns of an open file, the key `take` finds their batches by, and which are signatures. */
export interface HeldText {
  columns: string[];
  key: string;
  signatures: string[];
}

/** An open file: its handle, its Arrow schema (IPC stream bytes) and the columns it leaves in the file. */
export interface OpenedParquet {
  handle: number;
  schema: Uint8Array;
  /** The `deferKeyLists` columns the file has with the canonical type. */
  deferred: string[];
  /** The `holdText` columns the file has as Utf8, but those `unread`. */
  held?: HeldText;
  /**
   * Its `holdText` signature columns that the file declares required, with `signaturesInFile`:
   * presence is all a signature is checked for, and the file's schema says it, so they are left in
   * the file without being decoded (`take` reads rows of them back).
   */
  unread: string[];
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
  /**
   * Rows `rows` (0-based, any order) of a file's held text columns (`OpenedParquet.held`), their
   * values per column (Utf8Values, or SignatureValues for the signatures): from the batches the
   * decoder still holds, read back from the file for rows it no longer does. Its unread columns
   * are taken the same way, named by a HeldText of their own (a key no batch is held under).
   */
  take(location: ParquetLocation, held: HeldText, rows: Uint32Array): Promise<SignatureValues[]>;
  /**
   * Whether a file's u64 `column` never decreases, checked where it is decoded (nothing handed
   * over; a file without the column is in order); undefined when the decoder cannot tell (the
   * column is not u64, or holds nulls).
   */
  ascending(location: ParquetLocation, column: string): Promise<boolean | undefined>;
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

/** The bytes at `location` as a Blob parquet-wasm can read by range, and what to do when done with them. */
async function blobOf(location: ParquetLocation): Promise<{ blob: Blob; close?: () => Promise<void> }> {
  if ('blob' in location) return { blob: location.blob };
  if ('bytes' in location) return { blob: new Blob([location.bytes as BlobPart]) };
  // Node only, loaded only for a path, so that browsers never load node:fs
  const { fileRanges } = await import('./node-source.js');
  return fileRanges(location.path);
}

type StreamedBatch = {
  numRows: number;
  intoIPCStream(): Uint8Array;
  intoFFI(): { arrayAddr(): number; free(): void };
};

interface OpenFile {
  free(): void;
  location: ParquetLocation;
  batches: AsyncIterator<StreamedBatch>;
  /** The deferred key lists' batches, in step with `batches`. */
  deferred?: { columns: string[]; batches: AsyncIterator<StreamedBatch> };
  /** The held text columns' batches, in step with `batches`; which must be public keys. */
  text?: { columns: string[]; key: string; batches: AsyncIterator<StreamedBatch>; publicKeys: boolean[] };
  /** Columns left in the file unread (`OpenedParquet.unread`). */
  unread: string[];
  /** Rows handed out so far. */
  rows: number;
}

/** A batch of held text: rows [first, first + rows) of the file opened as `key`, in parquet-wasm's memory. */
interface HeldBatch {
  readonly key: string;
  readonly first: number;
  readonly rows: number;
  readonly ffi: { arrayAddr(): number; free(): void };
  /** Takes reading it now (a take awaits a read back, while batches are decoded and held): not freed meanwhile. */
  pins: number;
}

/**
 * Batches of text held at most. A load takes each chunk's rows a chunk or two after decoding them,
 * and taking frees the batches before the rows taken, so a few are held at a time; a batch evicted
 * before it is taken is read back from the file.
 */
const MAX_HELD_TEXT = 8;

/**
 * A batch's bytes at most, as the file's metadata counts them (uncompressed pages: strings of a
 * dictionary-encoded column decode to more). parquet-wasm's memory grows to its largest batch and
 * that batch's IPC copy, and never shrinks: a trades file's 65,536-row batches (~40 MiB decoded,
 * and the copy as much again) took the decoder's memory to ~145 MiB in the hour's load, ~120 in
 * batches of this size (15k trades); a transactions file's numbers still come 65,536 rows a batch.
 */
export const BATCH_BYTES = 2 << 20;

/**
 * Rows per batch: at most `batchRows`, fewer when the row group with the widest rows of `columns`
 * would take more than BATCH_BYTES; never under 1,024.
 */
function batchRowsWithin(file: ParquetFile, columns: string[], batchRows: number): number {
  const wanted = new Set(columns);
  let widest = 0;
  const metadata = file.metadata();
  for (const group of metadata.rowGroups()) {
    const rows = group.numRows();
    let bytes = 0;
    for (const column of group.columns()) {
      if (wanted.has(column.columnPath()[0]!)) bytes += column.uncompressedSize();
      column.free();
    }
    group.free();
    if (rows > 0) widest = Math.max(widest, bytes / rows);
  }
  metadata.free();
  return widest === 0 ? batchRows : Math.min(batchRows, Math.max(1024, Math.floor(BATCH_BYTES / widest)));
}

type ParquetFile = Awaited<ReturnType<Awaited<ReturnType<typeof loadParquetWasm>>['ParquetFile']['fromFile']>>;

/** The file at `location`, opened by parquet-wasm, and how to free it and its source (the caller does). */
async function openFile(location: ParquetLocation): Promise<{ file: ParquetFile; free(): void }> {
  const { blob, close } = await blobOf(location);
  const closeSource = () => void close?.().catch(() => undefined);
  try {
    const truncated = await truncatedParquet(blob);
    if (truncated) throw new Error(truncated);
    const parquet = await loadParquetWasm();
    let file: ParquetFile;
    try {
      file = await parquet.ParquetFile.fromFile(blob);
    } catch (error) {
      throw new Error(`not a readable Parquet file: ${String((error as Error)?.message ?? error)}`);
    }
    return { file, free: () => (file.free(), closeSource()) };
  } catch (error) {
    closeSource();
    throw error;
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

/** Whether every value of a held batch's text columns is present, and those of `publicKeys` public keys. */
async function textHolds(ffi: HeldBatch['ffi'], publicKeys: readonly boolean[]): Promise<boolean> {
  const columns = utf8Columns((await loadParquetWasm()).wasmMemory().buffer, ffi.arrayAddr());
  return columns !== undefined && columns.every((c, i) =>
    c.nullCount === 0 && (!publicKeys[i] || allPublicKeysUtf8(c.bytes, c.offsets, 0, c.length)));
}

/** The record batches of Utf8 `columns` read back from row `first` of a file: each batch's first row there, and its columns' buffers. */
function utf8Parts(table: Table, columns: string[], first: number): { first: number; columns: Utf8Values[] }[] {
  let at = first;
  return table.batches.map((batch) => {
    const part = { first: at, columns: columns.map((name) => {
      const data = batch.getChild(name)!.data[0]!;
      return { offsets: data.valueOffsets as Int32Array, bytes: data.values as Uint8Array };
    }) };
    at += batch.numRows;
    return part;
  });
}

/** A decoder running parquet-wasm in this thread (the kernel worker hosts one). */
export function createParquetDecoder(): ParquetDecoder {
  const files = new Map<number, OpenFile>();
  let nextHandle = 1;
  // keys of held text name this decoder too: a decoder in a new worker numbers its files anew
  const instance = Math.random().toString(36).slice(2);
  let held: HeldBatch[] = [];
  /** Frees the batches `done` says are done with, and the oldest beyond MAX_HELD_TEXT; never one a take is reading. */
  const letGo = (done: (batch: HeldBatch) => boolean = () => false) => {
    held = held.filter((batch) => {
      const free = batch.pins === 0 && done(batch);
      if (free) batch.ffi.free();
      return !free;
    });
    for (let k = 0; held.length > MAX_HELD_TEXT && k < held.length;) {
      if (held[k]!.pins > 0) k++;
      else held.splice(k, 1)[0]!.ffi.free();
    }
  };
  const hold = (batch: HeldBatch) => {
    held.push(batch);
    letGo();
  };
  const close = async (handle: number) => {
    files.get(handle)?.free();
    files.delete(handle);
  };
  return {
    async open(location, options) {
      const { file, free } = await openFile(location);
      try {
        const schema = file.schema().intoIPCStream();
        const fields = tableFromIPC(schema).schema.fields;
        const names = options.columns ?? fields.map((f) => f.name);
        const deferred = fields.filter((f) => options.deferKeyLists?.includes(f.name) && names.includes(f.name) && isKeyListField(f)).map((f) => f.name);
        const textFields = fields.filter((f) => options.holdText?.columns.includes(f.name) && names.includes(f.name) && String(f.type) === 'Utf8');
        const unread = !options.holdText?.signaturesInFile ? []
          : textFields.filter((f) => options.holdText!.signatures.includes(f.name) && !f.nullable).map((f) => f.name);
        const text = textFields.map((f) => f.name).filter((name) => !unread.includes(name));
        const left = [...deferred, ...text, ...unread];
        const handedOver = names.filter((n) => !left.includes(n));
        // one batch size for every stream of the file: theirs are cut in step (`inStep`)
        const batchSize = batchRowsWithin(file, handedOver, options.batchRows);
        const read = (columns?: string[]) =>
          file.stream({ batchSize, concurrency: 1, ...(columns ? { columns } : {}) }) as Promise<ReadableStream<StreamedBatch>>;
        const stream = await read(options.columns || left.length > 0 ? handedOver : undefined);
        const handle = nextHandle++;
        const key = `${instance}:${handle}`;
        files.set(handle, {
          free,
          location,
          batches: iterate(stream),
          deferred: deferred.length === 0 ? undefined : { columns: deferred, batches: iterate(await read(deferred)) },
          text: text.length === 0 ? undefined : {
            columns: text, key, batches: iterate(await read(text)), publicKeys: text.map((name) => options.holdText!.publicKeys.includes(name)),
          },
          unread,
          rows: 0,
        });
        const held = { columns: text, key, signatures: text.filter((name) => options.holdText!.signatures.includes(name)) };
        return { handle, schema, deferred, unread, ...(text.length > 0 ? { held } : {}) };
      } catch (error) {
        free();
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
      // the other streams cut the same row groups into batches of the same size
      const inStep = async (stream: AsyncIterator<StreamedBatch>) => {
        const batch = await stream.next();
        if (batch.done || batch.value.numRows !== rows) throw new Error('the deferred columns\' batches do not match the others\'');
        return batch.value;
      };
      const listsHold = !file.deferred || await keyListsHold(await inStep(file.deferred.batches));
      let textPasses = true;
      if (file.text) {
        const ffi = (await inStep(file.text.batches)).intoFFI();
        textPasses = await textHolds(ffi, file.text.publicKeys);
        if (textPasses) hold({ key: file.text.key, first, rows, ffi, pins: 0 });
        else ffi.free();
      }
      if (listsHold && textPasses) return [bytes];
      // every column left in the file handed over, for the reader to name the bad rows (read again: the check consumed the batch)
      const left = [...(file.deferred?.columns ?? []), ...(file.text?.columns ?? []), ...file.unread];
      return [bytes, await readRows(file.location, left, first, first + rows)];
    },
    close,
    readRows,
    ascending,
    async take(location, { columns, key, signatures }, rows) {
      const mine = held.filter((batch) => batch.key === key);
      for (const batch of mine) batch.pins++;
      let text: Utf8Values[];
      try {
        text = await takeFrom(mine, location, columns, rows);
      } finally {
        for (const batch of mine) batch.pins--;
        // a load takes rows in file order: the batches before the rows taken are done with
        let least = Infinity;
        for (const row of rows) least = Math.min(least, row);
        letGo((batch) => batch.key === key && batch.first + batch.rows <= least);
      }
      return text.map((values, c) => (signatures.includes(columns[c]!) ? keepSignatures(values) : values));
    },
  };
}

/** Rows `rows` of `columns`: from the held batches `mine` where they hold them, else read back from the file at `location`. */
async function takeFrom(mine: readonly HeldBatch[], location: ParquetLocation, columns: string[], rows: Uint32Array): Promise<Utf8Values[]> {
  // the batch holding each row (-1: none any longer, read back from the file in one read of the rows those span)
  const holder = new Int32Array(rows.length);
  let first = Infinity;
  let last = -1;
  const holds = (k: number, row: number) => row >= mine[k]!.first && row < mine[k]!.first + mine[k]!.rows;
  for (let j = 0, k = -1; j < rows.length; j++) {
    const row = rows[j]!;
    // the previous row's batch first: rows come in runs of a batch
    if (k < 0 || !holds(k, row)) for (k = mine.length - 1; k >= 0 && !holds(k, row); k--);
    holder[j] = k;
    if (k < 0) (first = Math.min(first, row)), (last = Math.max(last, row));
  }
  const read = last < 0 ? [] : utf8Parts(tableFromIPC(await readRows(location, columns, first, last + 1)), columns, first);
  // views made after the read: decoding may have grown parquet-wasm's memory (the batches are pinned)
  const memory = (await loadParquetWasm()).wasmMemory().buffer;
  const views = mine.map((batch) => utf8Columns(memory, batch.ffi.arrayAddr())!);
  // each row's place: a held batch's row (sources 0..mine.length - 1), or a row of a part read back (the sources after)
  const source = new Uint32Array(rows.length);
  const index = new Uint32Array(rows.length);
  for (let j = 0; j < rows.length; j++) {
    const k = holder[j]!;
    if (k >= 0) {
      source[j] = k;
      index[j] = rows[j]! - mine[k]!.first;
      continue;
    }
    let p = read.length - 1;
    while (read[p]!.first > rows[j]!) p--;
    source[j] = mine.length + p;
    index[j] = rows[j]! - read[p]!.first;
  }
  return columns.map((_, c) => pickUtf8([...views.map((view) => view[c]!), ...read.map((part) => part.columns[c]!)], source, index));
}

/** Rows a batch of `ascending` asks for at most: a batch ends with its row group, and is capped at BATCH_BYTES. */
const ASCENDING_ROWS = 1 << 20;

/** `ParquetDecoder.ascending`: the column's batches read through the C data interface, compared as 32-bit words. */
async function ascending(location: ParquetLocation, column: string): Promise<boolean | undefined> {
  const { file, free } = await openFile(location);
  try {
    const field = tableFromIPC(file.schema().intoIPCStream()).schema.fields.find((f) => f.name === column);
    if (!field) return true;
    if (String(field.type) !== 'Uint64') return undefined;
    const batchSize = batchRowsWithin(file, [column], ASCENDING_ROWS);
    const batches = iterate(await file.stream({ batchSize, concurrency: 1, columns: [column] }) as ReadableStream<StreamedBatch>);
    const parquet = await loadParquetWasm();
    let high = -1;
    let low = -1;
    try {
      for (let next = await batches.next(); !next.done; next = await batches.next()) {
        const ffi = next.value.intoFFI();
        try {
          const words = u64Words(parquet.wasmMemory().buffer, ffi.arrayAddr());
          if (!words) return undefined;
          if (words.length === 0) continue;
          if (!wordsAscending(words, high, low)) return false;
          [high, low] = [words[words.length - 2 + HIGH]!, words[words.length - 2 + LOW]!];
        } finally {
          ffi.free();
        }
      }
    } finally {
      await batches.return(undefined);
    }
    return true;
  } finally {
    free();
  }
}

/** Rows [from, to) of a file's `columns`, as Arrow IPC stream bytes. */
async function readRows(location: ParquetLocation, columns: string[], from: number, to: number): Promise<Uint8Array> {
  const { file, free } = await openFile(location);
  try {
    const table = await file.read({ columns, offset: from, limit: to - from, batchSize: Math.max(1, to - from) });
    return table.intoIPCStream();
  } finally {
    free();
  }
}
