import { limit, mint } from '../../rpc/params.js';
import { decimalAmount, tradePrice } from '../../schema/amounts.js';
import { recordId } from '../../schema/ids.js';
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
    return rows.map((t) => {
      const baseVolume = decimalAmount(t.base_amount, t.base_decimals);
      const quoteVolume = decimalAmount(t.quote_amount, t.quote_decimals);
      return {
        id: recordId('chain::market::trades', t.signature, t.fill_index),
        signature: t.signature,
        signer: t.signer,
        slot: t.slot,
        timestamp: t.timestamp,
        base: t.base,
        quote: t.quote,
        base_amount: t.base_amount,
        quote_amount: t.quote_amount,
        base_decimals: t.base_decimals,
        quote_decimals: t.quote_decimals,
        base_volume: baseVolume,
        quote_volume: quoteVolume,
        price: tradePrice(t.base_amount, t.base_decimals, t.quote_amount, t.quote_decimals),
        is_buy: t.is_buy,
      };
    });
  },
});
