/**
 * Where a chunk's write-locked accounts are. A load from Parquet leaves them in the file (checked
 * where decoded: files/parquet.ts), and the chunk's table holds nulls in their place: when every
 * transaction of the chunk left them in one file, the resident transactions keep the file rows and
 * read them back when a local fee market first needs them; a chunk that mixes files, or rows whose
 * lists are in the table, has the left ones read back at once.
 */
import { Vector, type List, type Table, type Utf8 } from 'apache-arrow';
import type { DeferredColumns, ValidatedBatch } from './validate.js';

const COLUMN = 'writable_accounts';

/**
 * Write-locked accounts left in a file: transaction i's list is at row `first + rows[i]` of `file`
 * (2 bytes a transaction where its rows span fewer than 65,536 of the file, as a chunk's do).
 */
export interface FileAccounts {
  readonly file: DeferredColumns;
  readonly first: number;
  readonly rows: Uint16Array | Uint32Array;
}

/** Rows of `file` (n of them, row i at `rowOf(i)`) as FileAccounts: offsets from the first, as narrow as they fit. */
export function fileAccounts(file: DeferredColumns, n: number, rowOf: (i: number) => number): FileAccounts {
  const absolute = new Uint32Array(n);
  let first = Infinity;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const row = (absolute[i] = rowOf(i));
    if (row < first) first = row;
    if (row > last) last = row;
  }
  if (last < 0) return { file, first: 0, rows: absolute };
  const rows = last - first < 0x10000 ? new Uint16Array(n) : absolute;
  for (let i = 0; i < n; i++) rows[i] = absolute[i]! - first;
  return { file, first, rows };
}

/** Key lists and where each transaction's is: transaction i's is `lists[rows?.[i] ?? i]` (null where the input gave none). */
export interface AccountLists {
  readonly lists: Vector<List<Utf8>> | null;
  readonly rows?: Uint32Array;
}

/** The key lists of a chunk's transactions, by row of its table: every one left in one file, or at hand. */
export type ChunkAccounts = FileAccounts | AccountLists;

/** The lists of `accounts` read back with one read of the rows they span (`rows` then index the lists read). */
export async function readBack({ file, first: base, rows }: FileAccounts): Promise<Required<AccountLists>> {
  let first = Infinity;
  let last = -1;
  for (const row of rows) (first = Math.min(first, row)), (last = Math.max(last, row));
  if (last < 0) return { lists: null, rows: new Uint32Array(0) };
  const lists = (await file.read(base + first, base + last + 1, [COLUMN])).getChild(COLUMN) as Vector<List<Utf8>> | null;
  const at = new Uint32Array(rows.length);
  for (let i = 0; i < rows.length; i++) at[i] = rows[i]! - first;
  return { lists, rows: at };
}

/** Where each row of a chunk's table came from: row `local[i]` of its batch `batch[i]`. */
export interface RowOrigins {
  readonly batch: Uint32Array;
  readonly local: Uint32Array;
}

/**
 * The accounts of `table`, the chunk's transactions (its `batches`, less the rows the commit
 * rejected; `origins` says where each row came from).
 */
export async function chunkAccounts(table: Table, batches: readonly ValidatedBatch[], origins: () => RowOrigins): Promise<ChunkAccounts> {
  const own = table.getChild(COLUMN) as Vector<List<Utf8>> | null;
  // the file each batch left the lists in (a batch may have left the read-only ones only)
  const leftIn = batches.map((b) => (b.deferred?.columns.includes(COLUMN) ? b.deferred : undefined));
  const files = [...new Set(leftIn)].filter((file) => file !== undefined);
  if (files.length === 0) return { lists: own };
  const { batch, local } = origins();
  const fileRow = (i: number) => Number(batches[batch[i]!]!.rowNumbers![local[i]!]) - 1;
  if (files.length === 1 && leftIn.every((file) => file === files[0])) return fileAccounts(files[0]!, table.numRows, fileRow);
  // mixed: the table's own lists first, then each file's rows read back, one vector of them all
  const rows = new Uint32Array(table.numRows);
  const chunks = [...(own?.data ?? [])];
  let base = own?.length ?? 0;
  for (const file of files) {
    const mine: number[] = [];
    for (let i = 0; i < table.numRows; i++) if (leftIn[batch[i]!] === file) mine.push(i);
    if (mine.length === 0) continue;
    const read = await readBack(fileAccounts(file, mine.length, (j) => fileRow(mine[j]!)));
    mine.forEach((i, j) => (rows[i] = base + read.rows[j]!));
    chunks.push(...(read.lists?.data ?? []));
    base += read.lists?.length ?? 0;
  }
  for (let i = 0; i < table.numRows; i++) if (!leftIn[batch[i]!]) rows[i] = i;
  return { lists: new Vector(chunks), rows };
}
