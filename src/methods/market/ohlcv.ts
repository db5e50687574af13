import { limit, mint, time, window } from '../../rpc/params.js';
import { Candle } from '../../schema/records.js';
import { MARKET_WINDOWS } from '../../schema/time.js';
import { defineMethod } from '../method.js';

/** Tumbling OHLCV candles per pair, newest first; the newest may be in progress. */
export default defineMethod({
  name: 'chain::market::ohlcv',
  summary: 'Tumbling OHLCV candles per pair, newest first; the newest may be in progress.',
  record: Candle,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), window: window(MARKET_WINDOWS), from: time('candle open time from, inclusive', true), to: time('candle open time to, exclusive', true), limit: limit(1, 5000, 5000) },
  handle: (params, { market }) => market.candles(params, params.window!, params.limit, params),
});
