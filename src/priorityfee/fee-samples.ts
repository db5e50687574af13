/**
 * The samples of a run of blocks, as the fee kernels read them: one entry per fee-paying
 * transaction (price > 0, not a vote) with its price, fee, limit and within-block position, plus
 * the counters over all transactions. A fee window keeps no copy of them: it holds the spans of
 * resident columns its blocks are in (the store's, shared), and gathers its samples when its
 * statistics are asked for, word by word (no BigInt a value), between turns of the event loop.
 */
import { blockSize, type FeeColumns } from '../ingest/fee-columns.js';
import type { FeeSamples } from '../kernels/fees.js';
import type { Steps } from '../platform/event-loop.js';
import { saturateU64, saturatingAdd } from '../schema/amounts.js';
import { HIGH, LOW, sumU64, wordsOf } from '../schema/u64-words.js';

/** Counters of a run of blocks (DESIGN.md 6: sums over non-vote transactions; totals over all). */
export interface FeeCounters {
  txCount: number;
  noPriorityTxCount: number;
  totalTxCount: number;
  /** A u64 field: the sum saturates at 2^64 - 1 (`saturateU64`), whatever the blocks' grouping. */
  totalPriorityFees: bigint;
}

/** Blocks [from, to) of resident columns (a chunk's, as the store keeps them). */
export interface BlockSpan {
  readonly columns: FeeColumns;
  readonly from: number;
  readonly to: number;
}

/** The counters of block b of `c`. */
export function blockCounters(c: FeeColumns, b: number): FeeCounters {
  const start = c.offsets[b]!;
  const end = c.offsets[b + 1]!;
  const price = wordsOf(c.computeUnitPrice);
  let zeros = 0;
  for (let i = start; i < end; i++) if ((price[2 * i]! | price[2 * i + 1]!) === 0) zeros++;
  return {
    txCount: end - start - zeros,
    noPriorityTxCount: zeros,
    totalTxCount: blockSize(c, b),
    totalPriorityFees: saturateU64(sumU64(c.priorityFee.subarray(start, end))),
  };
}

/** Samples gathered between two pauses. */
const PIECE = 1 << 14;

/** The samples of `spans`, block after block, in arrays of their own (pausing between pieces). */
export function* gatherSamples(spans: readonly BlockSpan[]): Steps<FeeSamples> {
  let n = 0;
  for (const { columns, from, to } of spans) {
    const price = wordsOf(columns.computeUnitPrice);
    for (let i = columns.offsets[from]!; i < columns.offsets[to]!; i++) if ((price[2 * i]! | price[2 * i + 1]!) !== 0) n++;
  }
  const out: FeeSamples = {
    price: new BigUint64Array(n), fee: new BigUint64Array(n), limit: new BigUint64Array(n), position: new Float64Array(n),
  };
  const [price, fee, limit] = [wordsOf(out.price), wordsOf(out.fee), wordsOf(out.limit)];
  let k = 0;
  let piece = 0;
  for (const { columns: c, from, to } of spans) {
    const cPrice = wordsOf(c.computeUnitPrice);
    const cFee = wordsOf(c.priorityFee);
    for (let b = from; b < to; b++) {
      const size = blockSize(c, b);
      for (let i = c.offsets[b]!; i < c.offsets[b + 1]!; i++) {
        if ((cPrice[2 * i]! | cPrice[2 * i + 1]!) === 0) continue;
        price[2 * k] = cPrice[2 * i]!;
        price[2 * k + 1] = cPrice[2 * i + 1]!;
        fee[2 * k] = cFee[2 * i]!;
        fee[2 * k + 1] = cFee[2 * i + 1]!;
        limit[2 * k + HIGH] = 0;
        limit[2 * k + LOW] = c.computeUnitLimit[i]!;
        out.position[k] = size === 1 ? 0 : c.index[i]! / (size - 1);
        k++;
      }
      if ((piece += c.offsets[b + 1]! - c.offsets[b]!) >= PIECE) (piece = 0), yield;
    }
  }
  return out;
}

/** Adds `more` into `total`. */
export function addCounters(total: FeeCounters, more: FeeCounters): FeeCounters {
  total.txCount += more.txCount;
  total.noPriorityTxCount += more.noPriorityTxCount;
  total.totalTxCount += more.totalTxCount;
  total.totalPriorityFees = saturatingAdd(total.totalPriorityFees, more.totalPriorityFees);
  return total;
}

export const zeroCounters = (): FeeCounters => ({ txCount: 0, noPriorityTxCount: 0, totalTxCount: 0, totalPriorityFees: 0n });

/** Adds block b of `columns` to `spans`: the last span grown when b follows it (replaced by a new object, so a copy of the list made earlier stays as it was). */
export function withBlock(spans: BlockSpan[], columns: FeeColumns, b: number): void {
  const last = spans[spans.length - 1];
  if (last?.columns === columns && last.to === b) spans[spans.length - 1] = { columns, from: last.from, to: b + 1 };
  else spans.push({ columns, from: b, to: b + 1 });
}
