import { limit, mint, window } from '../../rpc/params.js';
import { Vwap } from '../../schema/records.js';
import { MARKET_WINDOWS } from '../../schema/time.js';
import { defineMethod } from '../method.js';

/** Trailing-window VWAP per pair, one data point per block in which the pair traded. */
export default defineMethod({
  name: 'chain::market::vwap',
  summary: 'Trailing-window VWAP per pair, one data point per block in which the pair traded.',
  record: Vwap,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), window: window(MARKET_WINDOWS), limit: limit(1, 1000, 100) },
  handle: (params, { market }) => market.vwap(params, params.window!, params.limit, params.at),
});
