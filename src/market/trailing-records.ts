/**
 * chain::market::volume, vwap and twap records (seed 2.8-2.10) from a trailing data point.
 * data_points is the number of trades in the window everywhere. cumulative_price_volume is the sum
 * of price x base_volume over the window's trades, which is exactly their quote volume (price =
 * quote / base per trade), and is computed as that; likewise its USD value is the USD quote volume.
 */
import { recordId } from '../schema/ids.js';
import type { TwapRecord, VolumeRecord, VwapRecord } from '../schema/records.js';
import type { TrailingPoint } from './trailing-point.js';

/** The pair and window a point belongs to. */
export interface PointKey {
  readonly base: string;
  readonly quote: string;
  readonly window: string;
  readonly width: bigint;
}

const ratio = (num: number | null, den: number): number | null => (num === null || den === 0 ? null : num / den);

/** chain::market::volume (seed 2.8). */
export function volumeRecord(k: PointKey, p: TrailingPoint): VolumeRecord {
  return {
    id: recordId('chain::market::volume', k.base, k.quote, k.window, p.slot),
    base: k.base,
    quote: k.quote,
    timestamp: p.time,
    window_duration: k.width,
    base_volume: p.baseVolume,
    quote_volume: p.quoteVolume,
    buy_volume: p.buyVolume,
    sell_volume: p.sellVolume,
    total_volume: p.baseVolume,
    buy_swaps: p.buyCount,
    sell_swaps: p.count - p.buyCount,
    total_swaps: p.count,
    buy_sell_ratio: ratio(p.buyVolume, p.sellVolume),
    data_points: p.count,
    duration: k.width,
    window_start: p.windowStart,
    window_end: p.windowEnd,
    buy_volume_usd: p.buyVolumeUsd,
    sell_volume_usd: p.sellVolumeUsd,
    total_volume_usd: p.volumeUsd,
  };
}

/** chain::market::vwap (seed 2.9). */
export function vwapRecord(k: PointKey, p: TrailingPoint): VwapRecord {
  return {
    id: recordId('chain::market::vwap', k.base, k.quote, k.window, p.slot),
    base: k.base,
    quote: k.quote,
    timestamp: p.time,
    slot: p.slot,
    window_duration: k.width,
    vwap: p.quoteVolume / p.baseVolume,
    vwap_usd: ratio(p.volumeUsd, p.baseVolume),
    current_price: p.close,
    current_price_usd: p.closeUsd,
    cumulative_price_volume: p.quoteVolume,
    cumulative_price_volume_usd: p.volumeUsd,
    total_volume: p.baseVolume,
    total_volume_usd: p.volumeUsd,
    data_points: p.count,
    window_start: p.windowStart,
    window_end: p.windowEnd,
  };
}

/** chain::market::twap (seed 2.10). */
export function twapRecord(k: PointKey, p: TrailingPoint): TwapRecord {
  const seconds = (x: number | null) => (x === null ? null : x / 1e9);
  const covered = Number(p.duration);
  return {
    id: recordId('chain::market::twap', k.base, k.quote, k.window, p.slot),
    base: k.base,
    quote: k.quote,
    timestamp: p.time,
    slot: p.slot,
    window_duration: k.width,
    twap: p.weighted / covered,
    twap_usd: ratio(p.weightedUsd, covered),
    current_price: p.close,
    current_price_usd: p.closeUsd,
    cumulative_weighted_sum: seconds(p.weighted),
    cumulative_weighted_sum_usd: seconds(p.weightedUsd),
    total_duration: p.duration,
    data_points: p.count,
    window_start: p.windowStart,
    window_end: p.windowEnd,
  };
}
