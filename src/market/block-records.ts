/** chain::market::block records (seed 2.6) from per-block statistics. */
import { recordId } from '../schema/ids.js';
import type { BlockTradesRecord } from '../schema/records.js';
import type { BlockStats } from './block-stats.js';

/** x times the USD price of the quote, or null when that price is unknown. */
export const inUsd = (x: number, quoteUsd: number): number | null => (Number.isNaN(quoteUsd) ? null : x * quoteUsd);

/** The record of one pair's block: every *_usd field is its plain field times quote_usd_price. */
export function blockTradesRecord(s: BlockStats): BlockTradesRecord {
  const u = s.quoteUsd;
  return {
    id: recordId('chain::market::block', s.base, s.quote, s.slot),
    slot: s.slot,
    timestamp: s.time,
    base: s.base,
    quote: s.quote,
    vwap: s.vwap,
    vwap_raw: s.vwapRaw,
    min: s.low,
    max: s.high,
    base_volume: s.baseVolume,
    quote_volume: s.quoteVolume,
    total_volume: s.baseVolume,
    buy_volume: s.buyVolume,
    sell_volume: s.sellVolume,
    num_swaps: s.count,
    buy_swaps: s.buyCount,
    sell_swaps: s.count - s.buyCount,
    quote_usd_price: Number.isNaN(u) ? null : u,
    vwap_usd: inUsd(s.vwap, u),
    vwap_usd_raw: inUsd(s.vwapRaw, u),
    min_usd: inUsd(s.low, u),
    max_usd: inUsd(s.high, u),
    volume_usd: inUsd(s.quoteVolume, u),
    buy_volume_usd: inUsd(s.buyQuoteVolume, u),
    sell_volume_usd: inUsd(s.sellQuoteVolume, u),
    outlier_count: s.outlierCount,
    outlier_volume_pct: s.outlierVolumePct,
  };
}
