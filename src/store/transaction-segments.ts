/**
 * The raw transactions, resident in compact columns: nearly all the rows a dump holds, and only
 * the methods' as-of and first-asked answers read them back, a slot range at a time (fee windows,
 * recommendations, top transactions). One segment per commit, in slot order, found by binary
 * search; retention drops whole segments and trims the one it cuts through.
 *
 * What is kept is what those answers read: the fee columns of every transaction, per block
 * (ChunkTransactions, ~35 bytes a transaction), and the text (signature, signer, program) of each
 * block's best fee payers only (BEST_PER_BLOCK, what a top list can show), as UTF-8 bytes copied out
 * of the input. The canonical table itself (~230 bytes a transaction, most of it base58 text) is
 * not kept.
 */
import { makeData, Table, Utf8, type Data, type Vector } from 'apache-arrow';
import { bestFeePayers, chunkTransactions, type ChunkTransactions } from '../ingest/block-columns.js';
import { lowerBound } from '../windows/lower-bound.js';

/** Transactions as the store keeps them; block b is the transactions [offsets[b], offsets[b + 1]) of `columns`. */
export interface ResidentTransactions {
  /** The fee columns of every transaction, per block, ordered by (slot, index). */
  readonly columns: ChunkTransactions;
  /** Positions in `columns` whose text is kept: each block's best fee payers, best first, block after block. */
  readonly kept: Uint32Array;
  /** Block b's kept transactions are kept[keptOffsets[b]..keptOffsets[b + 1]). */
  readonly keptOffsets: Uint32Array;
  /** The kept transactions' text, in `kept` order. */
  readonly text: Table<{ signature: Utf8; signer: Utf8; program: Utf8 }>;
}

const TEXT_COLUMNS = ['signature', 'signer', 'program'] as const;

/** The per-transaction columns of ChunkTransactions, with their array types: the one list of them here. */
type FeeColumn = Exclude<keyof ChunkTransactions, 'slots' | 'offsets' | 'row'>;
type FeeArray = Uint8Array | Uint32Array | BigUint64Array;
const FEE_COLUMNS: Readonly<Record<FeeColumn, new (length: number) => FeeArray>> = {
  isVote: Uint8Array, failed: Uint8Array, computeUnitPrice: BigUint64Array, priorityFee: BigUint64Array,
  computeUnitLimit: Uint32Array, computeUnitsConsumed: BigUint64Array, consumedKnown: Uint8Array, index: Uint32Array,
};

/** Every fee column, each made by `make`. */
function feeColumns(make: (name: FeeColumn) => FeeArray): Pick<ChunkTransactions, FeeColumn> {
  return Object.fromEntries(Object.keys(FEE_COLUMNS).map((name) => [name, make(name as FeeColumn)])) as Pick<ChunkTransactions, FeeColumn>;
}

/** The text table of kept transactions, each column made by `make`. */
function textTable(make: (name: (typeof TEXT_COLUMNS)[number]) => Data<Utf8>): ResidentTransactions['text'] {
  return new Table(Object.fromEntries(TEXT_COLUMNS.map((name) => [name, make(name)])) as never) as ResidentTransactions['text'];
}

const utf8Data = (valueOffsets: Int32Array, data: Uint8Array): Data<Utf8> =>
  makeData({ type: new Utf8(), length: valueOffsets.length - 1, nullCount: 0, valueOffsets, data });

/** The rows `rows` of a Utf8 column as a new column: their bytes copied, so the input's buffers can go. */
function takeUtf8(vector: Vector, rows: readonly number[]): Data<Utf8> {
  const parts = vector.data.map((data) => ({ data, offsets: data.valueOffsets as Int32Array, bytes: data.values as Uint8Array }));
  const starts: number[] = [];
  let at = 0;
  for (const p of parts) starts.push(at), (at += p.data.length);
  const locate = (row: number) => {
    let k = parts.length - 1;
    while (starts[k]! > row) k--;
    return { part: parts[k]!, i: row - starts[k]! };
  };
  const valueOffsets = new Int32Array(rows.length + 1);
  let size = 0;
  const picked = rows.map((row, n) => {
    const { part, i } = locate(row);
    const from = part.offsets[i]!;
    const to = part.offsets[i + 1]!;
    size += to - from;
    valueOffsets[n + 1] = size;
    return part.bytes.subarray(from, to);
  });
  const data = new Uint8Array(size);
  picked.forEach((bytes, n) => data.set(bytes, valueOffsets[n]!));
  return utf8Data(valueOffsets, data);
}

/**
 * A chunk's canonical transactions table as the store keeps it (`columns`: its per-block columns,
 * when the caller already made them).
 */
export function residentTransactions(table: Table, columns: ChunkTransactions = chunkTransactions(table)): ResidentTransactions {
  const kept: number[] = [];
  const keptOffsets = new Uint32Array(columns.slots.length + 1);
  for (let b = 0; b < columns.slots.length; b++) {
    kept.push(...bestFeePayers(columns, b));
    keptOffsets[b + 1] = kept.length;
  }
  const rows = kept.map((i) => columns.row![i]!);
  const { row: _row, ...fees } = columns;
  return { columns: fees, kept: Uint32Array.from(kept), keptOffsets, text: textTable((name) => takeUtf8(table.getChild(name)!, rows)) };
}

/** Transactions held (rows). */
const rowsOf = (r: ResidentTransactions): number => r.columns.offsets[r.columns.slots.length]!;

/**
 * Blocks [from, to) of `r`: views of its columns, or (`copy`) columns of their own, so that what
 * is left out can be freed (a cut by retention).
 */
function sliceBlocks(r: ResidentTransactions, from: number, to: number, copy = false): ResidentTransactions {
  const c = r.columns;
  const first = c.offsets[from]!;
  const last = c.offsets[to]!;
  const keptFirst = r.keptOffsets[from]!;
  const keptLast = r.keptOffsets[to]!;
  const keptRows = () => Array.from({ length: keptLast - keptFirst }, (_, k) => keptFirst + k);
  return {
    columns: {
      slots: c.slots.slice(from, to),
      offsets: c.offsets.slice(from, to + 1).map((o) => o - first),
      ...feeColumns((name) => (copy ? c[name].slice(first, last) : c[name].subarray(first, last))),
    },
    kept: r.kept.slice(keptFirst, keptLast).map((i) => i - first),
    keptOffsets: r.keptOffsets.slice(from, to + 1).map((o) => o - keptFirst),
    text: copy ? textTable((name) => takeUtf8(r.text.getChild(name)!, keptRows())) : r.text.slice(keptFirst, keptLast),
  };
}

/** One column of every part, one after another. */
function concatColumn(parts: readonly ResidentTransactions[], name: FeeColumn): FeeArray {
  const out = new FEE_COLUMNS[name](parts.reduce((n, p) => n + p.columns[name].length, 0));
  let at = 0;
  for (const p of parts) out.set(p.columns[name] as never, at), (at += p.columns[name].length);
  return out;
}

/** The parts one after another (blocks in the parts' order). */
function concatBlocks(parts: readonly ResidentTransactions[]): ResidentTransactions {
  if (parts.length === 1) return parts[0]!;
  const offsets = [0];
  const keptOffsets = [0];
  const kept: number[] = [];
  let rows = 0;
  for (const p of parts) {
    for (let b = 1; b <= p.columns.slots.length; b++) offsets.push(rows + p.columns.offsets[b]!), keptOffsets.push(kept.length + p.keptOffsets[b]!);
    for (const i of p.kept) kept.push(rows + i);
    rows += rowsOf(p);
  }
  return {
    columns: {
      slots: parts.flatMap((p) => p.columns.slots),
      offsets: Uint32Array.from(offsets),
      ...feeColumns((name) => concatColumn(parts, name)),
    },
    kept: Uint32Array.from(kept),
    keptOffsets: Uint32Array.from(keptOffsets),
    text: new Table(parts.flatMap((p) => p.text.batches)) as ResidentTransactions['text'],
  };
}

/** No transactions. */
const EMPTY: ResidentTransactions = {
  columns: { slots: [], offsets: Uint32Array.of(0), ...feeColumns((name) => new FEE_COLUMNS[name](0)) },
  kept: new Uint32Array(0),
  keptOffsets: Uint32Array.of(0),
  text: textTable(() => utf8Data(Int32Array.of(0), new Uint8Array(0))),
};

/** The store's resident transactions, appended a commit at a time in slot order. */
export class TransactionSegments {
  #segments: ResidentTransactions[] = [];

  /** Adds a commit's transactions (the pipeline commits blocks in slot order; an older commit is placed before newer ones). */
  append(transactions: ResidentTransactions): void {
    const slots = transactions.columns.slots;
    if (slots.length === 0) return;
    let at = this.#segments.length;
    while (at > 0 && this.#segments[at - 1]!.columns.slots[0]! > slots[0]!) at--;
    this.#segments.splice(at, 0, transactions);
  }

  /** The transactions of slots first..last (inclusive), ordered by (slot, index). */
  between(first: bigint, last: bigint): ResidentTransactions {
    const parts: ResidentTransactions[] = [];
    for (const segment of this.#segments) {
      const slots = segment.columns.slots;
      if (slots[slots.length - 1]! < first || slots[0]! > last) continue;
      const from = lowerBound(slots, first);
      const to = lowerBound(slots, last + 1n);
      if (to > from) parts.push(from === 0 && to === slots.length ? segment : sliceBlocks(segment, from, to));
    }
    return parts.length === 0 ? EMPTY : concatBlocks(parts);
  }

  /** Drops the transactions of slots <= `last`. */
  pruneThrough(last: bigint): void {
    this.#segments = this.#segments.flatMap((segment) => {
      const slots = segment.columns.slots;
      if (slots[slots.length - 1]! <= last) return [];
      if (slots[0]! > last) return [segment];
      return [sliceBlocks(segment, lowerBound(slots, last + 1n), slots.length, true)];
    });
  }

  /** Transactions held. */
  get rows(): number {
    return this.#segments.reduce((n, s) => n + rowsOf(s), 0);
  }
}
