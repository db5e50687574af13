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

/** One pair's trades in one block, summarised. Volumes are decimal-adjusted; prices quote per base. */
export interface BlockStats {
  readonly base: string;
  readonly quote: string;
  readonly slot: bigint;
  /** Block time, ns (the time of the block's last trade of the pair; all trades of a block share it). */
  readonly time: bigint;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  /** VWAP without the outliers. */
  readonly vwap: number;
  readonly vwapRaw: number;
  readonly baseVolume: number;
  readonly quoteVolume: number;
  readonly buyVolume: number;
  readonly sellVolume: number;
  /** Quote volume of the buys / sells. */
  readonly buyQuoteVolume: number;
  readonly sellQuoteVolume: number;
  readonly outlierVolumePct: number;
  readonly count: number;
  readonly buyCount: number;
  readonly outlierCount: number;
  /** USD price of one quote unit at this block; NaN while unknown (set by `UsdPrices.apply`). */
  quoteUsd: number;
}

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

/** Statistics of every (slot, pair) of the chunk, pair after pair, slots ascending within a pair. */
export function blockStats(trades: ChunkTrades, outlierThreshold: number): BlockStats[] {
  const n = trades.slot.length;
  if (n === 0) return [];
  const kernels = marketKernels();
  const keys = groupKeys(trades);
  const slots = wordsOf(trades.slot);
  const ones = new Float64Array(n).fill(1);
  const aggregates = kernels.blockAggregates(
    { baseVolume: trades.baseVolume, quoteVolume: trades.quoteVolume, quoteUsdPrice: ones, isBuy: trades.isBuy },
    keys,
    { threshold: outlierThreshold },
  );
  const prices = kernels.candles({ time: keys, baseVolume: ones, quoteVolume: trades.price, quoteUsdPrice: ones }, 1n);

  const out: BlockStats[] = [];
  let row = 0;
  for (const pair of trades.pairs) {
    for (let i = pair.from; i < pair.to; row++) {
      let end = i + 1;
      while (end < pair.to && sameU64(slots, end, i)) end++;
      out.push({
        base: pair.base,
        quote: pair.quote,
        slot: trades.slot[i]!,
        time: trades.time[end - 1]!,
        open: prices.open[row]!,
        high: prices.high[row]!,
        low: prices.low[row]!,
        close: prices.close[row]!,
        vwap: aggregates.vwap[row]!,
        vwapRaw: aggregates.vwapRaw[row]!,
        baseVolume: aggregates.baseVolume[row]!,
        quoteVolume: aggregates.quoteVolume[row]!,
        buyVolume: aggregates.buyVolume[row]!,
        sellVolume: aggregates.sellVolume[row]!,
        buyQuoteVolume: aggregates.buyVolumeUsd[row]!,
        sellQuoteVolume: aggregates.sellVolumeUsd[row]!,
        outlierVolumePct: aggregates.outlierVolumePct[row]!,
        count: aggregates.count[row]!,
        buyCount: aggregates.buyCount[row]!,
        outlierCount: aggregates.outlierCount[row]!,
        quoteUsd: Number.NaN,
      });
      i = end;
    }
  }
  if (row !== aggregates.key.length || row !== prices.start.length) throw new Error('blockStats: kernel groups do not match the trades');
  return out;
}
