/**
 * The sliding state of chain::priorityfee::recommendation windows (DESIGN.md 6): each window
 * [end - w, end), end = the newest block's time + 1 ns, kept as exact order statistics that slide.
 * Each block adds its samples and the blocks that left a window take theirs out of it
 * (NestedWindows: the windows share one copy of the samples), so a point costs O(block), not O(window).
 */
import { blockSize, type FeeColumns } from '../ingest/fee-columns.js';
import type { EngineSettings } from '../methods/context.js';
import { priorityFeeOf } from '../schema/amounts.js';
import { recordId } from '../schema/ids.js';
import { Recommendation, TIERS, type RecommendationRecord } from '../schema/records.js';
import { NestedWindows, sortByKey } from '../windows/nested-windows.js';
import type { Steps } from '../platform/event-loop.js';
import { SlidingBlocks } from '../windows/sliding.js';

const MAX_CU_LIMIT = 1_400_000n;
/** Samples a window takes in or gives up between two pauses (see #apply). */
const PIECE = 256;

// block fill is an f64; its IEEE bits order like the value for non-negative numbers, so the
// windows of u64 keys give exact medians and counts of fills
const fillBits = new Float64Array(1);
const fillKey = new BigUint64Array(fillBits.buffer);
const keyOfFill = (fill: number): bigint => ((fillBits[0] = fill), fillKey[0]);
const fillOfKey = (key: bigint): number => ((fillKey[0] = key), fillBits[0]);

/** What one block adds to every window that holds it. */
export interface BlockPart {
  /** The fee-paying transactions' prices in ascending order, and their positions in the block with them. */
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
  // copies of what was taken (a window keeps the block's part for its whole length), in key order:
  // the windows take them in and out faster so (sortByKey)
  const kept = prices.slice(0, taken);
  const keptPositions = positions.slice(0, taken);
  sortByKey(kept, keptPositions);
  return {
    prices: kept,
    positions: keptPositions,
    consumed: consumed.slice(0, knownTaken).sort(), // a typed array sorts by value
    minPrice: taken ? kept[0] : undefined,
    medianPrice: taken ? kept[Math.max(0, Math.ceil(taken / 2) - 1)] : undefined,
    fill: allKnown ? keyOfFill((100 * Number(allConsumed)) / Number(cuLimit)) : undefined,
    txCount: taken,
    noPriorityTxCount: noPriority,
    totalTxCount: n,
    nonVoteConsumed,
    nonVoteCount: nonVoteKnown,
  };
}

/** A window length a {@link RecommendationWindows} keeps. */
export interface WindowLength {
  readonly window: string;
  readonly length: bigint;
}

/** The running sums of one window. */
class WindowSums {
  txCount = 0;
  noPriority = 0;
  total = 0;
  nonVoteConsumed = 0n;
  nonVoteCount = 0;
  medianSum = 0n;
  medianSquares = 0n;
  medianCount = 0;

  apply(part: BlockPart, sign: 1 | -1): void {
    const big = BigInt(sign);
    if (part.medianPrice !== undefined) {
      this.medianSum += big * part.medianPrice;
      this.medianSquares += big * part.medianPrice * part.medianPrice;
      this.medianCount += sign;
    }
    this.txCount += sign * part.txCount;
    this.noPriority += sign * part.noPriorityTxCount;
    this.total += sign * part.totalTxCount;
    this.nonVoteConsumed += big * part.nonVoteConsumed;
    this.nonVoteCount += sign * part.nonVoteCount;
  }

  /** Population std dev / mean of the per-block median prices, from exact integer sums; 0 when the mean is 0. */
  volatility(): number | null {
    const n = BigInt(this.medianCount);
    if (n === 0n) return null;
    if (this.medianSum === 0n) return 0;
    const variance = Number(n * this.medianSquares - this.medianSum * this.medianSum) / Number(n * n);
    return Math.sqrt(variance) / (Number(this.medianSum) / Number(n));
  }
}

/**
 * The sliding state of several window lengths at once, ending at the same block. They share their
 * samples (NestedWindows): a block's samples arrive once, and leave each window in turn as it
 * slides past them, shortest first.
 */
export class RecommendationWindows {
  readonly lengths: readonly WindowLength[];
  readonly #blocks: SlidingBlocks<BlockPart>;
  readonly #sums: WindowSums[];
  readonly #prices: NestedWindows; // payload: within-block position
  readonly #consumed: NestedWindows;
  readonly #blockMins: NestedWindows;
  readonly #fills: NestedWindows;

  /** `lengths` in any order; they are kept shortest first. */
  constructor(lengths: readonly WindowLength[]) {
    this.lengths = [...lengths].sort((a, b) => (a.length < b.length ? -1 : a.length > b.length ? 1 : 0));
    const k = this.lengths.length;
    this.#blocks = new SlidingBlocks(k);
    this.#sums = this.lengths.map(() => new WindowSums());
    this.#prices = new NestedWindows(k, { payloads: true });
    this.#consumed = new NestedWindows(k);
    this.#blockMins = new NestedWindows(k);
    this.#fills = new NestedWindows(k);
  }

  /**
   * Takes a block's samples in (every window) or out of window `w`, pausing (a Steps yield) after
   * each piece of PIECE samples: a block moves about 1,500 samples of a mainnet block in and as many
   * out of each window, milliseconds of one thread that a request arriving meanwhile would otherwise
   * wait for. Nothing reads the windows while they slide (answers read the points they made).
   */
  *#apply(part: BlockPart, w?: number): Steps<void> {
    const move = (sets: NestedWindows, keys: BigUint64Array, payloads?: Float64Array): void =>
      w === undefined ? sets.add(keys, payloads) : sets.leave(w, keys, payloads);
    for (let from = 0; from < part.prices.length; from += PIECE) {
      move(this.#prices, part.prices.subarray(from, from + PIECE), part.positions.subarray(from, from + PIECE));
      yield;
    }
    for (let from = 0; from < part.consumed.length; from += PIECE) {
      move(this.#consumed, part.consumed.subarray(from, from + PIECE));
      yield;
    }
    if (part.fill !== undefined) move(this.#fills, BigUint64Array.of(part.fill));
    if (part.minPrice !== undefined) move(this.#blockMins, BigUint64Array.of(part.minPrice));
    if (w === undefined) for (const sums of this.#sums) sums.apply(part, 1);
    else this.#sums[w].apply(part, -1);
  }

  /** Slides every window to end just after the block at `time` and adds the block. */
  *add(part: BlockPart, time: bigint): Steps<void> {
    this.#blocks.push(time, part);
    yield* this.#apply(part);
    // shortest first: a block leaves a window only after every shorter one
    for (let w = 0; w < this.lengths.length; w++) {
      for (const expired of this.#blocks.expire(w, time + 1n - this.lengths[w].length)) yield* this.#apply(expired, w);
    }
  }

  /** Adds the block (as `add`) and makes each window's point after it, in the order of `lengths`. */
  *advance(part: BlockPart, slot: bigint, time: bigint, settings: Readonly<EngineSettings>): Steps<RecommendationRecord[]> {
    yield* this.add(part, time);
    return this.lengths.map((_, w) => this.#record(w, slot, time, settings));
  }

  #record(w: number, slot: bigint, time: bigint, settings: Readonly<EngineSettings>): RecommendationRecord {
    const { window, length } = this.lengths[w];
    const sums = this.#sums[w];
    const values: Record<string, unknown> = {
      id: recordId('chain::priorityfee::recommendation', window, slot),
      timestamp: time,
      window_duration: length,
      window_start: time + 1n - length,
      window_end: time + 1n,
      tx_count: sums.txCount,
      no_priority_tx_count: sums.noPriority,
      total_tx_count: sums.total,
      data_points: sums.txCount,
      is_valid: sums.txCount >= settings.minSamples,
    };
    const prices = this.#prices;
    const samples = prices.size(w);
    const consumed = this.#consumed.size(w);
    const blockMins = this.#blockMins.size(w);
    // over the fee-paying transactions that know their consumed compute units
    const cuLimit = consumed ? min((11n * this.#consumed.percentile(w, 50_000) + 9n) / 10n, MAX_CU_LIMIT) : null;
    for (const [tier, percent] of TIERS) {
      const tail = samples ? prices.percentileTail(w, percent * 1000) : null;
      const price = tail?.key ?? null;
      values[`${tier}_price`] = price;
      values[`${tier}_fee`] = price === null || cuLimit === null ? null : priorityFeeOf(price, cuLimit);
      values[`${tier}_cu_limit`] = cuLimit === null ? null : Number(cuLimit);
      values[`${tier}_landing_rank_pct`] = tail === null ? null : (100 * tail.payloadSum) / tail.count;
      values[`${tier}_landing_inclusion_pct`] = price === null ? null : (100 * this.#blockMins.countAtMost(w, price)) / blockMins;
    }
    const blocks = this.#fills.size(w); // the window's blocks whose fill is known
    values.median_block_fill_pct = blocks ? fillOfKey(this.#fills.percentile(w, 50_000)) : null;
    values.saturated_block_share_pct = blocks ? (100 * this.#fills.countAtLeast(w, keyOfFill(settings.saturatedFillPct))) / blocks : null;
    values.fee_volatility = sums.volatility();
    values.avg_cu_per_tx = sums.nonVoteCount ? Number(sums.nonVoteConsumed) / sums.nonVoteCount : null;
    return Object.fromEntries(Recommendation.fields.map(([name]) => [name, values[name]])) as RecommendationRecord;
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
