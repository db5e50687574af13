/**
 * chain::priorityfee::top_txs as of a time: the fee-paying transactions of the trailing window with
 * the highest priority fee (ties: newer first), read from the store's transactions. The window ends
 * just after the newest block with transactions before `at` (DESIGN.md 5). The live answer is the
 * same list kept block by block in memory (top-tracker.ts); without `at` this query gives it too.
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
  return rows.map((r) => topTransactionRecord(rowToTopEntry(r), window, windowNs, end));
}

/** One fee-paying transaction as the top list knows it. */
export interface TopEntry {
  signature: string;
  signer: string;
  program: string;
  slot: bigint;
  /** Index in its block (breaks ties of fee and slot: higher first). */
  index: number;
  timestamp: bigint;
  price: bigint;
  limit: number;
  /** null when the source does not know it. */
  consumed: bigint | null;
  fee: bigint;
}

/** A store row (the columns `topTransactions` selects, plus `index`) as an entry. */
export function rowToTopEntry(r: Record<string, unknown>): TopEntry {
  return {
    signature: r.signature as string,
    signer: r.signer as string,
    program: r.program as string,
    slot: r.slot as bigint,
    index: Number(r.index ?? 0),
    timestamp: r.timestamp as bigint,
    price: r.compute_unit_price as bigint,
    limit: Number(r.compute_unit_limit),
    consumed: r.compute_units_consumed as bigint | null,
    fee: r.priority_fee as bigint,
  };
}

/** The record of an entry in the top list of the window [end - w, end). */
export function topTransactionRecord(e: TopEntry, window: string, windowNs: bigint, end: bigint): TopTransactionRecord {
  return {
    id: recordId('chain::priorityfee::top_txs', window, e.signature),
    signature: e.signature,
    signer: e.signer,
    program: e.program,
    slot: e.slot,
    timestamp: e.timestamp,
    compute_unit_price: e.price,
    compute_unit_limit: e.limit,
    compute_units_consumed: e.consumed,
    total_priority_fee: e.fee,
    window_duration: windowNs,
    window_start: end - windowNs,
    window_end: end,
  };
}
