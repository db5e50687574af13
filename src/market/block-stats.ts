/**
 * Per (slot, pair) statistics of a chunk's trades, from the market kernels on this thread (a chunk's
 * trades take them a fraction of a millisecond, less than a round trip to the kernel worker): one `blockAggregates`
 * call (VWAP with outlier trimming, volumes by side, counts) and one `candles` call with width 1
 * over the same groups (open, high, low and close of the exact trade prices), both over every pair
 * of the chunk at once (group key = pair rank x 2^40 + slot offset).
 *
 * The kernels read a USD column; it is all ones here, so that their "USD" sums are quote volumes
 * (total, buys, sells). USD values are applied afterwards (usd-prices.ts): each block value times
 * the block's quote_usd_price.
 */
import { marketKernels } from '../kernels/market.js';
import { compareU64, HIGH, LOW, sameU64, wordsOf } from '../schema/u64-words.js';
import type { ChunkTrades } from './chunk-trades.js';

/**
 * A pair-block's values besides its slot and time, as numbers: prices quote per base, volumes
 * decimal-adjusted; vwap leaves the outliers out (vwapRaw does not); buyQuoteVolume and
 * sellQuoteVolume are the quote volume of the buys and the sells; quoteUsd is the USD price of one
 * quote unit at the block, NaN while unknown. The one list of them: the records, a chunk's columns
 * and a pair's series (pair-series.ts) follow it.
 */
export const FLOAT_STATS = [
  'open', 'high', 'low', 'close', 'vwap', 'vwapRaw', 'baseVolume', 'quoteVolume', 'buyVolume', 'sellVolume',
  'buyQuoteVolume', 'sellQuoteVolume', 'outlierVolumePct', 'quoteUsd',
] as const;
/** Its counts: trades, buys, outliers. */
export const COUNT_STATS = ['count', 'buyCount', 'outlierCount'] as const;
export type FloatStat = (typeof FLOAT_STATS)[number];
export type CountStat = (typeof COUNT_STATS)[number];

/** One pair's trades in one block, summarised; `time` is the block's, ns (its trades all share it). */
export type BlockStats = { readonly base: string; readonly quote: string; readonly slot: bigint; readonly time: bigint }
  & { readonly [K in FloatStat | CountStat]: number };

/** Group keys are pair rank x 2^40 + slot - the chunk's first slot: 2^8 in the high word. */
const PAIR_HIGH = 2 ** 8;

/**
 * The kernels' group key of every trade, written as 32-bit words (no BigInt a trade): slots are
 * below 2^63, and a chunk spans far fewer than 2^40 of them.
 */
function groupKeys(trades: ChunkTrades): BigInt64Array {
  const slots = wordsOf(trades.slot);
  let first = 0;
  for (let i = 1; i < trades.slot.length; i++) if (compareU64(slots, i, first) < 0) first = i;
  const keys = new BigInt64Array(trades.slot.length);
  const words = wordsOf(keys);
  const [firstHigh, firstLow] = [slots[2 * first + HIGH]!, slots[2 * first + LOW]!];
  trades.pairs.forEach((pair, p) => {
    for (let i = pair.from; i < pair.to; i++) {
      const low = slots[2 * i + LOW]! - firstLow;
      words[2 * i + LOW] = low; // wraps to the low word of the difference
      words[2 * i + HIGH] = p * PAIR_HIGH + slots[2 * i + HIGH]! - firstHigh - (low < 0 ? 1 : 0);
    }
  });
  return keys;
}

/** One pair's rows [from, to) of a chunk's statistics. */
export interface PairRows {
  readonly base: string;
  readonly quote: string;
  readonly from: number;
  readonly to: number;
}

/**
 * The statistics of every (slot, pair) of a chunk as columns, row r one pair's block (the fields of
 * BlockStats), pair after pair, slots ascending within a pair: the kernels' own result columns, not
 * an object a pair-block (those were a quarter of what the hour's load allocated on this thread).
 * quoteUsd is NaN until `UsdPrices.price` sets it.
 */
export type ChunkBlockStats = {
  readonly rows: number;
  readonly pairs: readonly PairRows[];
  readonly slot: BigInt64Array;
  readonly time: BigInt64Array;
} & { readonly [K in FloatStat]: Float64Array } & { readonly [K in CountStat]: Uint32Array };

/** A chunk without trades: every column empty (each named by the lists above). */
const NO_STATS = {
  rows: 0, pairs: [], slot: new BigInt64Array(0), time: new BigInt64Array(0),
  ...Object.fromEntries(FLOAT_STATS.map((name) => [name, new Float64Array(0)])),
  ...Object.fromEntries(COUNT_STATS.map((name) => [name, new Uint32Array(0)])),
} as unknown as ChunkBlockStats;

/** Statistics of every (slot, pair) of the chunk, pair after pair, slots ascending within a pair. */
export function blockStats(trades: ChunkTrades, outlierThreshold: number): ChunkBlockStats {
  const n = trades.slot.length;
  if (n === 0) return NO_STATS;
  const kernels = marketKernels();
  const keys = groupKeys(trades);
  const slots = wordsOf(trades.slot);
  const times = wordsOf(trades.time);
  const ones = new Float64Array(n).fill(1);
  const aggregates = kernels.blockAggregates(
    { baseVolume: trades.baseVolume, quoteVolume: trades.quoteVolume, quoteUsdPrice: ones, isBuy: trades.isBuy },
    keys,
    { threshold: outlierThreshold },
  );
  const prices = kernels.candles({ time: keys, baseVolume: ones, quoteVolume: trades.price, quoteUsdPrice: ones }, 1n);

  const groups = aggregates.key.length;
  if (groups !== prices.start.length) throw new Error('blockStats: kernel groups do not match the trades');
  const slot = new BigInt64Array(groups);
  const time = new BigInt64Array(groups);
  // copied as 32-bit words: no BigInt a row
  const [slotOut, timeOut] = [wordsOf(slot), wordsOf(time)];
  const pairs: PairRows[] = [];
  let row = 0;
  for (const pair of trades.pairs) {
    const from = row;
    for (let i = pair.from; i < pair.to; row++) {
      let end = i + 1;
      while (end < pair.to && sameU64(slots, end, i)) end++;
      slotOut[2 * row] = slots[2 * i]!;
      slotOut[2 * row + 1] = slots[2 * i + 1]!;
      timeOut[2 * row] = times[2 * (end - 1)]!; // the block's time: that of its last trade (all share it)
      timeOut[2 * row + 1] = times[2 * (end - 1) + 1]!;
      i = end;
    }
    pairs.push({ base: pair.base, quote: pair.quote, from, to: row });
  }
  if (row !== groups) throw new Error('blockStats: kernel groups do not match the trades');
  return {
    rows: groups, pairs, slot, time,
    open: prices.open, high: prices.high, low: prices.low, close: prices.close,
    vwap: aggregates.vwap, vwapRaw: aggregates.vwapRaw, baseVolume: aggregates.baseVolume, quoteVolume: aggregates.quoteVolume,
    buyVolume: aggregates.buyVolume, sellVolume: aggregates.sellVolume,
    buyQuoteVolume: aggregates.buyVolumeUsd, sellQuoteVolume: aggregates.sellVolumeUsd,
    outlierVolumePct: aggregates.outlierVolumePct,
    count: aggregates.count, buyCount: aggregates.buyCount, outlierCount: aggregates.outlierCount,
    quoteUsd: new Float64Array(groups).fill(Number.NaN),
  };
}
