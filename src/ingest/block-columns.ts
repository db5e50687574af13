/**
 * A chunk's transactions as per-block typed columns, the shape the fee kernels read: rows ordered
 * by (slot, index), blocks back to back with offsets. Also derives `priority_fee` where the input
 * left it out (DESIGN.md 3: ceil(price x limit / 1e6), exact).
 */
import type { Table } from 'apache-arrow';
import { rowsToTable, tableToRows } from './arrow.js';
import { priorityFeeOf } from '../schema/amounts.js';
import { boolBytes, compareU64, gather, gatherU64, HIGH, LOW, sameU64, wordsOf } from '../schema/u64-words.js';

/** Per-block transaction columns; block b is rows [offsets[b], offsets[b + 1]). */
export interface BlockColumns {
  slots: bigint[];
  offsets: Uint32Array;
  computeUnitPrice: BigUint64Array;
  priorityFee: BigUint64Array;
  computeUnitLimit: Uint32Array;
  /** 0 where compute_units_consumed is null (unknown to the source). */
  computeUnitsConsumed: BigUint64Array;
  /** 1 where compute_units_consumed is known, 0 where it is null. */
  consumedKnown: Uint8Array;
  index: Uint32Array;
}

/** A chunk's transactions, votes among them, as per-block columns (what the block fee kernels read). */
export interface ChunkTransactions extends BlockColumns {
  isVote: Uint8Array;
  /** Row of each entry in the input table (for its text and accounts). */
  row: Uint32Array;
}


/** Whether some `priority_fee` of a transactions table is null (to be derived: `withPriorityFees`). */
export function lacksPriorityFees(table: Table): boolean {
  return (table.getChild('priority_fee')?.nullCount ?? 0) > 0;
}

/**
 * The transactions table with every null `priority_fee` derived (the same table when none is null).
 * Inputs that omit the column take the plain-row path: rare, and simple beats fast here.
 */
export function withPriorityFees(table: Table): Table {
  if (!lacksPriorityFees(table)) return table;
  const rows = tableToRows('transactions', table);
  for (const row of rows) row.priority_fee ??= priorityFeeOf(row.compute_unit_price, row.compute_unit_limit);
  return rowsToTable('transactions', rows);
}

/**
 * A chunk's transactions' numeric columns in table order (priority fees present): all that the
 * per-block forms are made of, so that another thread can make them.
 */
export interface TransactionNumbers {
  slot: BigUint64Array;
  index: Uint32Array;
  isVote: Uint8Array;
  computeUnitPrice: BigUint64Array;
  priorityFee: BigUint64Array;
  computeUnitLimit: Uint32Array;
  /** 0 where compute_units_consumed is null. */
  computeUnitsConsumed: BigUint64Array;
  /** 1 where compute_units_consumed is known, 0 where it is null. */
  consumedKnown: Uint8Array;
}

/**
 * The numeric columns of a chunk's transactions table (priority fees present). `owned`: each in a
 * buffer of its own, to transfer to another thread (a column of one chunk is otherwise a view of
 * its batch's whole IPC message, cloned whole if sent as it is, or the table's own buffer); else
 * views of the table's buffers where a column has one chunk. A column of several chunks is a fresh
 * copy either way (apache-arrow joins them), so owning it costs no second copy.
 */
export function transactionNumbers(table: Table, owned = false): TransactionNumbers {
  const n = table.numRows;
  const column = <T extends BigUint64Array | Uint32Array>(name: string): T => {
    const vector = table.getChild(name)!;
    const values = vector.toArray() as T;
    return owned && vector.data.length === 1 ? (values.slice() as T) : values;
  };
  const consumed = table.getChild('compute_units_consumed')!;
  let computeUnitsConsumed = column<BigUint64Array>('compute_units_consumed');
  const consumedKnown = new Uint8Array(n).fill(1);
  if (consumed.nullCount > 0) {
    // the values under a null are not ours to change
    if (!owned && consumed.data.length === 1) computeUnitsConsumed = computeUnitsConsumed.slice();
    for (let i = 0; i < n; i++) {
      if (consumed.isValid(i)) continue;
      consumedKnown[i] = 0;
      computeUnitsConsumed[i] = 0n;
    }
  }
  return {
    slot: column('slot'),
    index: column('index'),
    isVote: boolBytes(table.getChild('is_vote')!),
    computeUnitPrice: column('compute_unit_price'),
    priorityFee: column('priority_fee'),
    computeUnitLimit: column('compute_unit_limit'),
    computeUnitsConsumed,
    consumedKnown,
  };
}

/** Whether rows are in (slot, index) order already (`slotWords`: the slots' words). */
function inKeyOrder(slotWords: Uint32Array, index: Uint32Array): boolean {
  for (let i = 1; i < index.length; i++) {
    const bySlot = compareU64(slotWords, i - 1, i);
    if (bySlot > 0 || (bySlot === 0 && index[i - 1]! > index[i]!)) return false;
  }
  return true;
}

/** Every column of `numbers` in `order`. */
const gathered = (numbers: TransactionNumbers, order: Uint32Array): TransactionNumbers => ({
  slot: gatherU64(numbers.slot, order),
  index: gather(numbers.index, order),
  isVote: gather(numbers.isVote, order),
  computeUnitPrice: gatherU64(numbers.computeUnitPrice, order),
  priorityFee: gatherU64(numbers.priorityFee, order),
  computeUnitLimit: gather(numbers.computeUnitLimit, order),
  computeUnitsConsumed: gatherU64(numbers.computeUnitsConsumed, order),
  consumedKnown: gather(numbers.consumedKnown, order),
});

/**
 * A chunk's transactions (its numeric columns) as per-block columns ordered by (slot, index). Rows
 * already in that order (a file's, a block's, nearly always) keep their columns: the copies in
 * order cost more than the rest of a chunk's forms together.
 */
export function chunkTransactions(numbers: TransactionNumbers): ChunkTransactions {
  const n = numbers.slot.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const inputWords = wordsOf(numbers.slot);
  const sorted = inKeyOrder(inputWords, numbers.index);
  if (!sorted) order.sort((a, b) => compareU64(inputWords, a, b) || numbers.index[a]! - numbers.index[b]!);
  const { slot, ...columns } = sorted ? numbers : gathered(numbers, order);
  const slotWords = wordsOf(slot);
  const slots: bigint[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && sameU64(slotWords, i - 1, i)) continue;
    slots.push(slot[i]!); // a BigInt per block, not per row
    offsets.push(i);
  }
  offsets.push(n);
  return { ...columns, slots, offsets: Uint32Array.from(offsets), row: order };
}

/**
 * The fee-paying transactions of a block a top list can show: chain::priorityfee::top_txs shows at
 * most 100, so no window's top holds more than the 100 best of any one block. The store keeps the
 * text (signature, signer, program) of these only.
 */
export const BEST_PER_BLOCK = 100;

/** Scratch of `bestFeePayers`: a block's fee-paying rows and their float keys (grown to the largest block). */
let candidates = new Uint32Array(4096);
let candidateKeys = new Float64Array(4096);

/** The k-th smallest (0-based) of `values`, which it reorders (Hoare's quickselect: a block's sort cost ~6x as much). */
function kthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i > j) break;
      const swap = values[i]!;
      values[i++] = values[j]!;
      values[j--] = swap;
    }
    // [lo, j] are at most the pivot, [i, hi] at least, and any between equal to it
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return pivot;
  }
  return values[k]!;
}

/**
 * Writes the positions of block b's best `n` fee-paying (nonzero price) transactions of `columns`
 * (non-vote transactions: FeeColumns), best first (priority fee, then index, descending), to `out`
 * from `at`; returns how many.
 */
export function bestFeePayers(columns: BlockColumns, b: number, out: Uint32Array, at: number, n = BEST_PER_BLOCK): number {
  const price = wordsOf(columns.computeUnitPrice);
  const fee = wordsOf(columns.priorityFee);
  const { index } = columns;
  const [first, end] = [columns.offsets[b]!, columns.offsets[b + 1]!];
  if (candidates.length < end - first) [candidates, candidateKeys] = [new Uint32Array(end - first), new Float64Array(end - first)];
  let count = 0;
  for (let i = first; i < end; i++) if ((price[2 * i]! | price[2 * i + 1]!) !== 0) candidates[count++] = i;
  const key = (i: number) => fee[2 * i + HIGH]! * 2 ** 32 + fee[2 * i + LOW]!;
  if (count > n) {
    // a float key never orders two fees the wrong way round (it may tie them), so the rows whose key
    // reaches the n-th highest key hold the best n; only they go through the exact comparator
    for (let k = 0; k < count; k++) candidateKeys[k] = key(candidates[k]!);
    const cut = kthSmallest(candidateKeys.subarray(0, count), count - n);
    let reaching = 0;
    for (let k = 0; k < count; k++) if (key(candidates[k]!) >= cut) candidates[reaching++] = candidates[k]!;
    count = reaching;
  }
  const best = candidates.subarray(0, count).sort((x, y) =>
    fee[2 * y + HIGH]! - fee[2 * x + HIGH]! || fee[2 * y + LOW]! - fee[2 * x + LOW]! || index[y]! - index[x]!);
  const kept = Math.min(n, count);
  out.set(best.subarray(0, kept), at);
  return kept;
}
