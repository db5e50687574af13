/**
 * The sliding state of one chain::priorityfee::recommendation window (DESIGN.md 6): the window
 * [end - w, end), end = the newest block's time + 1 ns, kept as exact order statistics that slide.
 * Each block adds its samples and the blocks that left the window remove theirs (OrderedMultiset),
 * so a point costs O(block), not O(window).
 */
import { blockSize, type FeeColumns } from '../ingest/fee-columns.js';
import type { EngineSettings } from '../methods/context.js';
import { priorityFeeOf } from '../schema/amounts.js';
import { recordId } from '../schema/ids.js';
import { Recommendation, TIERS, type RecommendationRecord } from '../schema/records.js';
import { OrderedMultiset } from '../windows/ordered-multiset.js';
import type { Steps } from '../platform/event-loop.js';
import { SlidingBlocks } from '../windows/sliding.js';

const MAX_CU_LIMIT = 1_400_000n;
/** Samples a window takes in or gives up between two pauses (see #apply). */
const PIECE = 256;

// block fill is an f64; its IEEE bits order like the value for non-negative numbers, so the
// multiset of u64 keys gives exact medians and counts of fills
const fillBits = new Float64Array(1);
const fillKey = new BigUint64Array(fillBits.buffer);
const keyOfFill = (fill: number): bigint => ((fillBits[0] = fill), fillKey[0]);
const fillOfKey = (key: bigint): number => ((fillKey[0] = key), fillBits[0]);

/** What one block adds to every window that holds it. */
export interface BlockPart {
  prices: BigUint64Array;
  positions: Float64Array;
  /** Consumed compute units of the fee-paying transactions that know them. */
  consumed: BigUint64Array;
  /** Lowest and median (nearest-rank p50) fee-paying price; undefined without fee-paying transactions. */
  minPrice?: bigint;
  medianPrice?: bigint;
  /** Key of the block fill; undefined when a transaction's consumed compute units are unknown. */
  fill?: bigint;
  txCount: number;
  noPriorityTxCount: number;
  totalTxCount: number;
  /** Consumed compute units of the non-vote transactions that know them, and their number. */
  nonVoteConsumed: bigint;
  nonVoteCount: number;
}

export function blockPart(c: FeeColumns, b: number, cuLimit: bigint): BlockPart {
  const start = c.offsets[b];
  const end = c.offsets[b + 1];
  const n = blockSize(c, b);
  // sized for every transaction of the block; what is taken is copied out at the end
  const prices = new BigUint64Array(end - start);
  const positions = new Float64Array(end - start);
  const consumed = new BigUint64Array(end - start);
  let taken = 0, knownTaken = 0;
  let noPriority = 0, nonVoteKnown = 0, nonVoteConsumed = 0n;
  let allConsumed = c.votes.consumed[b]!;
  let allKnown = c.votes.consumedKnown[b] === 1;
  for (let i = start; i < end; i++) {
    const known = c.consumedKnown[i] === 1;
    allConsumed += c.computeUnitsConsumed[i];
    allKnown &&= known;
    if (known) {
      nonVoteKnown++;
      nonVoteConsumed += c.computeUnitsConsumed[i];
    }
    if (c.computeUnitPrice[i] === 0n) {
      noPriority++;
      continue;
    }
    prices[taken] = c.computeUnitPrice[i];
    positions[taken++] = n === 1 ? 0 : c.index[i] / (n - 1);
    if (known) consumed[knownTaken++] = c.computeUnitsConsumed[i];
  }
  // copies of what was taken: a window keeps the block's part for its whole length
  const kept = prices.slice(0, taken);
  const sorted = kept.slice().sort(); // a typed array sorts by value
  return {
    prices: kept,
    positions: positions.slice(0, taken),
    consumed: consumed.slice(0, knownTaken),
    minPrice: taken ? sorted[0] : undefined,
    medianPrice: taken ? sorted[Math.max(0, Math.ceil(taken / 2) - 1)] : undefined,
    fill: allKnown ? keyOfFill((100 * Number(allConsumed)) / Number(cuLimit)) : undefined,
    txCount: taken,
    noPriorityTxCount: noPriority,
    totalTxCount: n,
    nonVoteConsumed,
    nonVoteCount: nonVoteKnown,
  };
}

/** The sliding state of one window length. */
export class RecommendationWindow {
  readonly #blocks = new SlidingBlocks<BlockPart>();
  readonly #prices = new OrderedMultiset(); // payload: within-block position
  readonly #consumed = new OrderedMultiset();
  readonly #blockMins = new OrderedMultiset();
  readonly #fills = new OrderedMultiset();
  #txCount = 0;
  #noPriority = 0;
  #total = 0;
  #nonVoteConsumed = 0n;
  #nonVoteCount = 0;
  #medianSum = 0n;
  #medianSquares = 0n;
  #medianCount = 0;

  constructor(readonly window: string, readonly length: bigint) {}

  /**
   * Takes a block's samples in (sign 1) or out (-1), pausing (a Steps yield) after each piece of
   * PIECE samples: a 15m window moves about 1,500 samples of a mainnet block in and as many out,
   * milliseconds of one thread that a request arriving meanwhile would otherwise wait for. Nothing
   * reads a window while it slides (answers read the points it made).
   */
  *#apply(part: BlockPart, sign: 1 | -1): Steps<void> {
    yield* slide(this.#prices, sign, part.prices, part.positions);
    yield* slide(this.#consumed, sign, part.consumed);
    if (part.fill !== undefined) {
      if (sign > 0) this.#fills.addOne(part.fill);
      else this.#fills.removeOne(part.fill);
    }
    const big = BigInt(sign);
    if (part.minPrice !== undefined) {
      if (sign > 0) this.#blockMins.addOne(part.minPrice);
      else this.#blockMins.removeOne(part.minPrice);
      this.#medianSum += big * part.medianPrice!;
      this.#medianSquares += big * part.medianPrice! * part.medianPrice!;
      this.#medianCount += sign;
    }
    this.#txCount += sign * part.txCount;
    this.#noPriority += sign * part.noPriorityTxCount;
    this.#total += sign * part.totalTxCount;
    this.#nonVoteConsumed += big * part.nonVoteConsumed;
    this.#nonVoteCount += sign * part.nonVoteCount;
  }

  /** Slides the window to end just after the block at `time` and adds the block. */
  *add(part: BlockPart, time: bigint): Steps<void> {
    this.#blocks.push(time, part);
    yield* this.#apply(part, 1);
    for (const expired of this.#blocks.expire(time + 1n - this.length)) yield* this.#apply(expired.data, -1);
  }

  /** Adds the block (as `add`) and makes the window's point after it. */
  *advance(part: BlockPart, slot: bigint, time: bigint, settings: Readonly<EngineSettings>): Steps<RecommendationRecord> {
    yield* this.add(part, time);
    return this.#record(slot, time, time + 1n - this.length, time + 1n, settings);
  }

  #record(slot: bigint, time: bigint, start: bigint, end: bigint, settings: Readonly<EngineSettings>): RecommendationRecord {
    const values: Record<string, unknown> = {
      id: recordId('chain::priorityfee::recommendation', this.window, slot),
      timestamp: time,
      window_duration: this.length,
      window_start: start,
      window_end: end,
      tx_count: this.#txCount,
      no_priority_tx_count: this.#noPriority,
      total_tx_count: this.#total,
      data_points: this.#txCount,
      is_valid: this.#txCount >= settings.minSamples,
    };
    const samples = this.#prices.size;
    // over the fee-paying transactions that know their consumed compute units
    const cuLimit = this.#consumed.size ? min((11n * this.#consumed.percentile(50_000) + 9n) / 10n, MAX_CU_LIMIT) : null;
    for (const [tier, percent] of TIERS) {
      const price = samples ? this.#prices.percentile(percent * 1000) : null;
      values[`${tier}_price`] = price;
      values[`${tier}_fee`] = price === null || cuLimit === null ? null : priorityFeeOf(price, cuLimit);
      values[`${tier}_cu_limit`] = cuLimit === null ? null : Number(cuLimit);
      values[`${tier}_landing_rank_pct`] = price === null ? null : (100 * this.#prices.payloadSumAtLeast(price)) / this.#prices.countAtLeast(price);
      values[`${tier}_landing_inclusion_pct`] =
        price === null ? null : (100 * this.#blockMins.countAtMost(price)) / this.#blockMins.size;
    }
    const blocks = this.#fills.size; // the window's blocks whose fill is known
    values.median_block_fill_pct = blocks ? fillOfKey(this.#fills.percentile(50_000)) : null;
    values.saturated_block_share_pct = blocks ? (100 * this.#fills.countAtLeast(keyOfFill(settings.saturatedFillPct))) / blocks : null;
    values.fee_volatility = this.#volatility();
    values.avg_cu_per_tx = this.#nonVoteCount ? Number(this.#nonVoteConsumed) / this.#nonVoteCount : null;
    return Object.fromEntries(Recommendation.fields.map(([name]) => [name, values[name]])) as RecommendationRecord;
  }

  /** Population std dev / mean of the per-block median prices, from exact integer sums; 0 when the mean is 0. */
  #volatility(): number | null {
    const n = BigInt(this.#medianCount);
    if (n === 0n) return null;
    if (this.#medianSum === 0n) return 0;
    const variance = Number(n * this.#medianSquares - this.#medianSum * this.#medianSum) / Number(n * n);
    return Math.sqrt(variance) / (Number(this.#medianSum) / Number(n));
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** Adds (sign 1) or removes (-1) the entries of `keys` (and `payloads`) PIECE at a time, a pause after each piece. */
function* slide(set: OrderedMultiset, sign: 1 | -1, keys: BigUint64Array, payloads?: Float64Array): Steps<void> {
  for (let from = 0; from < keys.length; from += PIECE) {
    const to = Math.min(keys.length, from + PIECE);
    const piece = keys.subarray(from, to);
    const pieceOf = payloads?.subarray(from, to);
    if (sign > 0) set.add(piece, pieceOf);
    else set.remove(piece, pieceOf);
    yield;
  }
}
