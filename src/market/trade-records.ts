/** chain::market::trades records (seed 2.11) from canonical trade rows: the query's and the stream's. */
import { decimalAmount, tradePrice } from '../schema/amounts.js';
import { recordId } from '../schema/ids.js';
import type { TradeRecord } from '../schema/records.js';
import type { TradeRow } from '../schema/tables.js';

/** The record of one fill: volumes and price from the exact raw amounts (one rounding each). */
export function tradeRecord(t: TradeRow): TradeRecord {
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
    base_volume: decimalAmount(t.base_amount, t.base_decimals),
    quote_volume: decimalAmount(t.quote_amount, t.quote_decimals),
    price: tradePrice(t.base_amount, t.base_decimals, t.quote_amount, t.quote_decimals),
    is_buy: t.is_buy,
  };
}
