import { limit, mint, window } from '../../rpc/params.js';
import { Twap } from '../../schema/records.js';
import { MARKET_WINDOWS } from '../../schema/time.js';
import { defineMethod } from '../method.js';

/** Trailing-window TWAP per pair, one data point per block in which the pair traded. */
export default defineMethod({
  name: 'chain::market::twap',
  summary: 'Trailing-window TWAP per pair, one data point per block in which the pair traded.',
  record: Twap,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), window: window(MARKET_WINDOWS), limit: limit(1, 1000, 100) },
  handle: (params, { market }) => market.twap(params, params.window!, params.limit, params.at),
});
