/**
 * Seeded data sets of the benchmarks, built once per figure and shared by every subject:
 * - fee blocks: the synthetic market's blocks (src/generate) as per-block transaction columns;
 * - price samples: compute-unit prices of the generator's fee-paying transactions, resampled to
 *   10^6-10^7 samples at the generator's rate (about 400 per block, 150 blocks a minute);
 * - trades: one busy pair's fills, a random walk at about 20 trades a second.
 * The same seed gives the same data on every run.
 */
import type { ChunkTransactions } from '../src/ingest/block-columns.js';
import { generateBlocks } from '../src/generate/market.js';
import { Rng } from '../src/generate/prng.js';
import type { ManyBlockColumns } from '../src/kernels/fees.js';
import type { TradeColumns } from '../src/kernels/market.js';

/** Nanoseconds of one slot and of a minute. */
export const SLOT_NS = 400_000_000n;
export const MINUTE_NS = 60_000_000_000n;
/** 2026-01-01T00:00:00Z, ns (the generator's default start). */
export const START_NS = 1_767_225_600_000_000_000n;

/** Transaction columns of consecutive blocks, back to back (block b is rows [offsets[b], offsets[b + 1])). */
export interface FeeBlocks extends ManyBlockColumns {
  slots: BigUint64Array;
  /** Block time, ns. */
  times: BigInt64Array;
  blocks: number;
  rows: number;
}

/** Bytes of one transaction row the fee kernels read: price, fee, consumed (u64), limit, index (u32), vote (u8). */
export const FEE_ROW_BYTES = 8 + 8 + 8 + 4 + 4 + 1;

class Growable<A extends BigUint64Array | Uint32Array | Uint8Array> {
  array: A;
  length = 0;
  constructor(private readonly make: (n: number) => A) {
    this.array = make(1 << 16);
  }
  push(value: A[number]): void {
    if (this.length === this.array.length) {
      const next = this.make(this.array.length * 2);
      next.set(this.array as never);
      this.array = next;
    }
    (this.array as unknown as { [i: number]: A[number] })[this.length++] = value;
  }
  done(): A {
    return this.array.slice(0, this.length) as A;
  }
}

/** `blocks` consecutive blocks of the synthetic market with `txPerBlock` transactions on average (votes included). */
export function feeBlocks(blocks: number, txPerBlock = 1500, seed: number | string = 7): FeeBlocks {
  const price = new Growable((n) => new BigUint64Array(n));
  const fee = new Growable((n) => new BigUint64Array(n));
  const consumed = new Growable((n) => new BigUint64Array(n));
  const limit = new Growable((n) => new Uint32Array(n));
  const index = new Growable((n) => new Uint32Array(n));
  const vote = new Growable((n) => new Uint8Array(n));
  const offsets = new Uint32Array(blocks + 1);
  const slots = new BigUint64Array(blocks);
  const times = new BigInt64Array(blocks);
  let b = 0;
  for (const { block, transactions } of generateBlocks({ blocks, txPerBlock, seed })) {
    slots[b] = block.slot;
    times[b] = block.timestamp;
    for (const tx of transactions) {
      price.push(tx.compute_unit_price);
      fee.push(tx.priority_fee ?? 0n);
      consumed.push(tx.compute_units_consumed ?? 0n); // the generator always knows it
      limit.push(tx.compute_unit_limit);
      index.push(tx.index);
      vote.push(tx.is_vote ? 1 : 0);
    }
    offsets[++b] = price.length;
  }
  return {
    slots, times, offsets, blocks, rows: price.length,
    computeUnitPrice: price.done(), priorityFee: fee.done(), computeUnitsConsumed: consumed.done(),
    computeUnitLimit: limit.done(), index: index.done(), isVote: vote.done(),
  };
}

/** Blocks [from, to) of `data` as the pipeline's per-chunk transaction columns. */
export function chunkOf(data: FeeBlocks, from: number, to: number): ChunkTransactions {
  const start = data.offsets[from]!;
  const end = data.offsets[to]!;
  const offsets = new Uint32Array(to - from + 1);
  for (let b = from; b <= to; b++) offsets[b - from] = data.offsets[b]! - start;
  const rows = end - start;
  const row = new Uint32Array(rows);
  for (let i = 0; i < rows; i++) row[i] = i;
  return {
    slots: [...data.slots.subarray(from, to)],
    offsets,
    isVote: data.isVote.subarray(start, end),
    computeUnitPrice: data.computeUnitPrice.subarray(start, end),
    priorityFee: data.priorityFee.subarray(start, end),
    computeUnitLimit: data.computeUnitLimit.subarray(start, end),
    computeUnitsConsumed: data.computeUnitsConsumed.subarray(start, end),
    consumedKnown: new Uint8Array(rows).fill(1),
    index: data.index.subarray(start, end),
    row,
  };
}

/** Fee-paying compute-unit prices with their block times, ascending by time. */
export interface PriceSamples {
  time: BigInt64Array;
  price: BigUint64Array;
}

/**
 * `n` compute-unit prices: drawn (seeded) from the fee-paying transactions of `poolBlocks` generated
 * blocks, each with a 5% log-normal jitter so that resampling does not just repeat the pool, and
 * `perBlock` of them per 400 ms slot (the generator's rate at 1,500 transactions a block).
 */
export function priceSamples(n: number, seed: number | string = 11, poolBlocks = 400, perBlock = 410): PriceSamples {
  const pool: bigint[] = [];
  for (const { transactions } of generateBlocks({ blocks: poolBlocks, txPerBlock: 1500, seed })) {
    for (const tx of transactions) if (!tx.is_vote && tx.compute_unit_price > 0n) pool.push(tx.compute_unit_price);
  }
  const rng = Rng.from(seed, 'bench:samples');
  const time = new BigInt64Array(n);
  const price = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    const drawn = Number(pool[rng.int(pool.length)]!);
    price[i] = BigInt(Math.max(1, Math.round(drawn * Math.exp(0.05 * rng.normal()))));
    time[i] = START_NS + BigInt(Math.floor(i / perBlock)) * SLOT_NS;
  }
  return { time, price };
}

/** Bytes of one trade the candle and TWAP kernels read (time, base, quote, USD price); VWAP sums add the side byte. */
export const TRADE_BYTES = 8 * 4;

/** Trades of one pair in order-key order, with their sides. */
export interface TradeSet extends TradeColumns {
  readonly isBuy: Uint8Array;
}

/**
 * `n` trades of one SOL/USDC-like pair: Poisson(8) fills per 400 ms slot (3% of slots empty by
 * skip), a geometric random walk of the price, log-normal base amounts, a buy/sell coin, the USD
 * price of the quote near 1 (every USD price known).
 */
export function tradeSet(n: number, seed: number | string = 13): TradeSet {
  const rng = Rng.from(seed, 'bench:trades');
  const time = new BigInt64Array(n);
  const baseVolume = new Float64Array(n);
  const quoteVolume = new Float64Array(n);
  const quoteUsdPrice = new Float64Array(n);
  const isBuy = new Uint8Array(n);
  let price = 140;
  let usd = 1;
  let slot = 0n;
  for (let i = 0; i < n; ) {
    slot++;
    if (rng.chance(0.03)) continue;
    const fills = rng.poisson(8);
    usd *= 1 + 0.00001 * rng.normal();
    for (let k = 0; k < fills && i < n; k++, i++) {
      price *= Math.exp(0.0004 * rng.normal());
      const base = rng.logNormal(2, 1.5);
      time[i] = START_NS + slot * SLOT_NS;
      baseVolume[i] = base;
      quoteVolume[i] = base * price * (1 + 0.001 * rng.normal());
      quoteUsdPrice[i] = usd;
      isBuy[i] = rng.chance(0.5) ? 1 : 0;
    }
  }
  return { time, baseVolume, quoteVolume, quoteUsdPrice, isBuy };
}

/** Index of the first element of ascending `time` at or after `at` (binary search). */
export function lowerBound(time: BigInt64Array, at: bigint, lo = 0, hi = time.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Row offsets of tumbling windows of `width` ns over ascending `time`: window w is rows [offsets[w], offsets[w + 1]). */
export function windowOffsets(time: BigInt64Array, width: bigint): { starts: bigint[]; offsets: number[] } {
  const starts: bigint[] = [];
  const offsets: number[] = [];
  for (let at = 0; at < time.length; ) {
    const start = (time[at]! / width) * width;
    starts.push(start);
    offsets.push(at);
    at = lowerBound(time, start + width, at);
  }
  offsets.push(time.length);
  return { starts, offsets };
}
