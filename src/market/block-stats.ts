/**
 * Per (slot, pair) statistics of a chunk's trades, from the market kernels: one `blockAggregates`
 * call (VWAP with outlier trimming, volumes by side, counts) and one `candles` call with width 1
 * over the same groups (open, high, low and close of the exact trade prices), both over every pair
 * of the chunk at once (group key = pair rank x 2^40 + slot offset).
 *
 * The kernels read a USD column; it is all ones here, so that their "USD" sums are quote volumes
 * (total, buys, sells). USD values are applied afterwards (usd-prices.ts): each block value times
 * the block's quote_usd_price.
 */
import type { KernelClient } from '../kernels/client.js';
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

const PAIR_SHIFT = 40n;

/** Statistics of every (slot, pair) of the chunk, pair after pair, slots ascending within a pair (kernels in the worker). */
export async function blockStats(kernels: KernelClient, trades: ChunkTrades, outlierThreshold: number): Promise<BlockStats[]> {
  const n = trades.slot.length;
  if (n === 0) return [];
  let first = trades.slot[0]!;
  for (let i = 1; i < n; i++) if (trades.slot[i]! < first) first = trades.slot[i]!;
  const keys = new BigInt64Array(n);
  trades.pairs.forEach((pair, p) => {
    for (let i = pair.from; i < pair.to; i++) keys[i] = (BigInt(p) << PAIR_SHIFT) + (trades.slot[i]! - first);
  });
  const ones = new Float64Array(n).fill(1);
  const aggregates = await kernels.blockAggregates(
    { baseVolume: trades.baseVolume, quoteVolume: trades.quoteVolume, quoteUsdPrice: ones, isBuy: trades.isBuy },
    keys,
    { threshold: outlierThreshold },
  );
  const prices = await kernels.candles({ time: keys, baseVolume: ones, quoteVolume: trades.price, quoteUsdPrice: ones }, 1n);

  const out: BlockStats[] = [];
  let row = 0;
  for (const pair of trades.pairs) {
    for (let i = pair.from; i < pair.to; row++) {
      let end = i + 1;
      while (end < pair.to && keys[end] === keys[i]) end++;
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
