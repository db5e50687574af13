/**
 * chain::priorityfee::top_txs: the fee-paying transactions of the trailing window with the highest
 * priority fee (ties: newer first), read from the store's transactions. The window ends just after
 * the newest block with transactions before `at` (DESIGN.md 5), so live and as-of answers are the same query.
 */
import { recordId } from '../schema/ids.js';
import type { TopTransactionRecord } from '../schema/records.js';
import type { Store } from '../store/store.js';
import { newestFeeBlock, windowSlots } from './store-queries.js';

/** At most this many data points, whatever the limit (the seed: "up to 100 data points"). */
export const TOP_TRANSACTIONS_CAP = 100;

export async function topTransactions(
  store: Store | undefined, windowNs: bigint, window: string, limit: number, at?: bigint,
): Promise<TopTransactionRecord[]> {
  if (!store) return [];
  const newest = await newestFeeBlock(store, at);
  if (!newest) return [];
  const end = newest.timestamp + 1n;
  const start = end - windowNs;
  const rows = await store.rows(
    `SELECT t.signature, t.signer, t.program, t.slot, b."timestamp", t.compute_unit_price, t.compute_unit_limit,` +
      ` t.compute_units_consumed, t.priority_fee FROM transactions t JOIN blocks b ON b.slot = t.slot` +
      ` WHERE ${await windowSlots(store, start, newest, 't.slot')}` +
      ` AND t.compute_unit_price > 0 AND NOT t.is_vote` +
      ` ORDER BY t.priority_fee DESC, t.slot DESC, t."index" DESC LIMIT ${Math.min(limit, TOP_TRANSACTIONS_CAP)}`,
  );
  return rows.map((r) => ({
    id: recordId('chain::priorityfee::top_txs', window, r.signature as string),
    signature: r.signature as string,
    signer: r.signer as string,
    program: r.program as string,
    slot: r.slot as bigint,
    timestamp: r.timestamp as bigint,
    compute_unit_price: r.compute_unit_price as bigint,
    compute_unit_limit: Number(r.compute_unit_limit),
    compute_units_consumed: r.compute_units_consumed as bigint,
    total_priority_fee: r.priority_fee as bigint,
    window_duration: windowNs,
    window_start: start,
    window_end: end,
  }));
}
