/**
 * The samples of a run of blocks, as the fee kernels read them: one entry per fee-paying
 * transaction (price > 0, not a vote) with its price, fee, limit and within-block position, plus
 * the counters over all transactions. Growable, so a window can take block after block.
 */
import { blockSize, type FeeColumns } from '../ingest/fee-columns.js';
import type { FeeSamples } from '../kernels/fees.js';
import { saturateU64, saturatingAdd } from '../schema/amounts.js';

/** Counters of a run of blocks (DESIGN.md 6: sums over non-vote transactions; totals over all). */
export interface FeeCounters {
  txCount: number;
  noPriorityTxCount: number;
  totalTxCount: number;
  /** A u64 field: the sum saturates at 2^64 - 1 (`saturateU64`), whatever the blocks' grouping. */
  totalPriorityFees: bigint;
}

export class SampleBuffer {
  price = new BigUint64Array(1024);
  fee = new BigUint64Array(1024);
  limit = new BigUint64Array(1024);
  position = new Float64Array(1024);
  length = 0;

  /** Appends the fee-paying transactions of blocks [from, to) of `columns`; returns their counters. */
  addBlocks(columns: FeeColumns, from: number, to: number): FeeCounters {
    const counters: FeeCounters = { txCount: 0, noPriorityTxCount: 0, totalTxCount: 0, totalPriorityFees: 0n };
    for (let b = from; b < to; b++) this.#addBlock(columns, b, counters);
    return counters;
  }

  #addBlock(c: FeeColumns, b: number, counters: FeeCounters): void {
    const start = c.offsets[b];
    const end = c.offsets[b + 1];
    const n = blockSize(c, b);
    counters.totalTxCount += n;
    this.#reserve(this.length + end - start);
    let fees = counters.totalPriorityFees; // exact within the block, saturated after it
    for (let i = start; i < end; i++) {
      fees += c.priorityFee[i];
      if (c.computeUnitPrice[i] === 0n) {
        counters.noPriorityTxCount++;
        continue;
      }
      counters.txCount++;
      const k = this.length++;
      this.price[k] = c.computeUnitPrice[i];
      this.fee[k] = c.priorityFee[i];
      this.limit[k] = BigInt(c.computeUnitLimit[i]);
      this.position[k] = n === 1 ? 0 : c.index[i] / (n - 1);
    }
    counters.totalPriorityFees = saturateU64(fees);
  }

  /** Samples [from, length) as kernel input (views, not copies). */
  view(from = 0): FeeSamples {
    return {
      price: this.price.subarray(from, this.length),
      fee: this.fee.subarray(from, this.length),
      limit: this.limit.subarray(from, this.length),
      position: this.position.subarray(from, this.length),
    };
  }

  #reserve(capacity: number): void {
    if (capacity <= this.price.length) return;
    const size = Math.max(capacity, this.price.length * 2);
    const grow = <T extends BigUint64Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a.subarray(0, this.length) as never);
      return b;
    };
    this.price = grow(this.price, (n) => new BigUint64Array(n));
    this.fee = grow(this.fee, (n) => new BigUint64Array(n));
    this.limit = grow(this.limit, (n) => new BigUint64Array(n));
    this.position = grow(this.position, (n) => new Float64Array(n));
  }
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
