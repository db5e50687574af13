/** chain::market::ohlcv records (seed 2.7) from folded candles. */
import { recordId } from '../schema/ids.js';
import type { CandleRecord } from '../schema/records.js';
import type { CandleValues } from './candle-fold.js';
import type { PairSeries } from './pair-series.js';

/** timestamp is the candle's open time (seed 2.7). */
export function candleRecord(series: PairSeries, window: string, width: bigint, c: CandleValues): CandleRecord {
  const known = !Number.isNaN(c.volumeUsd);
  return {
    id: recordId('chain::market::ohlcv', series.base, series.quote, window, c.start),
    base: series.base,
    quote: series.quote,
    timestamp: c.start,
    window_duration: width,
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    base_volume: c.baseVolume,
    quote_volume: c.quoteVolume,
    open_usd: known ? c.openUsd : null,
    high_usd: known ? c.highUsd : null,
    low_usd: known ? c.lowUsd : null,
    close_usd: known ? c.closeUsd : null,
    volume_usd: known ? c.volumeUsd : null,
    data_points: c.count,
    window_start: c.start,
    window_end: c.start + width,
  };
}
