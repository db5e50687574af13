import { limit, mint } from '../../rpc/params.js';
import { tradeRecord } from '../../market/trade-records.js';
import { Trade } from '../../schema/records.js';
import { prunedHistory } from '../../store/retention.js';
import { defineMethod } from '../method.js';

/**
 * Individual fills, newest first (slot, tx_index, fill_index descending). Live from memory when it
 * holds the answer exactly (market/recent-trades.ts), else (and with `at`) from the store. Under
 * retention answers end at the cut, and an `at` at or before it is refused.
 */
export default defineMethod({
  name: 'chain::market::trades',
  summary: 'Individual fills, newest first.',
  record: Trade,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), limit: limit(1, 1000, 100) },
  async handle(params, { store, market }) {
    const cut = store?.prunedBefore;
    if (params.at !== undefined && cut !== undefined && params.at <= cut) throw prunedHistory('at', 'trades', { before: params.at }, cut);
    const filter = { base: params.base, quote: params.quote };
    const rows = (params.at === undefined ? market.trades.latest(filter, params.limit) : undefined)
      ?? (await store?.trades({ ...filter, beforeNs: params.at, limit: params.limit }))
      ?? [];
    // memory may still hold trades the store has pruned: an answer lists the same ones either way
    return (cut === undefined ? rows : rows.filter((row) => row.timestamp >= cut)).map(tradeRecord);
  },
});
