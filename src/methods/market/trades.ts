import { limit, mint } from '../../rpc/params.js';
import { tradeRecord } from '../../market/trade-records.js';
import { Trade } from '../../schema/records.js';
import { prunedHistory } from '../../store/retention.js';
import { defineMethod } from '../method.js';

/**
 * Individual fills, newest first (slot, tx_index, fill_index descending), live and as of a time,
 * from the market's resident trade columns (market/trade-log.ts). Under retention answers end at
 * the cut, and an `at` at or before it is refused.
 */
export default defineMethod({
  name: 'chain::market::trades',
  summary: 'Individual fills, newest first.',
  record: Trade,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), limit: limit(1, 1000, 100) },
  handle(params, { store, market }) {
    const cut = store?.prunedBefore;
    if (params.at !== undefined && cut !== undefined && params.at <= cut) throw prunedHistory('at', 'trades', { before: params.at }, cut);
    return market.trades.newest({ base: params.base, quote: params.quote }, params.limit, params.at, cut).map(tradeRecord);
  },
});
