import { limit, mint } from '../../rpc/params.js';
import { tradeRecord } from '../../market/trade-records.js';
import { Trade } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/** Individual fills, newest first (slot, tx_index, fill_index descending). */
export default defineMethod({
  name: 'chain::market::trades',
  summary: 'Individual fills, newest first.',
  record: Trade,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), limit: limit(1, 1000, 100) },
  async handle(params, { store }) {
    const rows = (await store?.trades({ base: params.base, quote: params.quote, beforeNs: params.at, limit: params.limit })) ?? [];
    return rows.map(tradeRecord);
  },
});
