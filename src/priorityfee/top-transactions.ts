/**
 * chain::priorityfee::top_txs as of a time: the fee-paying transactions of the trailing window with
 * the highest priority fee (ties: newer first), read from the store's resident transactions. The window ends
 * just after the newest block with transactions before `at` (DESIGN.md 5). The live answer is the
 * same list kept block by block in memory (top-tracker.ts); without `at` this query gives it too.
 */
import { recordId } from '../schema/ids.js';
import type { TopTransactionRecord } from '../schema/records.js';
import type { Store } from '../store/store.js';
import type { Table } from 'apache-arrow';
import { sqlInteger } from '../store/sql.js';
import { newestFeeBlock, transactionsSince } from './store-queries.js';

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
  const table = await transactionsSince(store, start, newest);
  const top = topRows(table, Math.min(limit, TOP_TRANSACTIONS_CAP));
  if (top.length === 0) return [];
  const times = new Map<bigint, bigint>();
  const slots = [...new Set(top.map((r) => table.getChild('slot')!.get(r) as bigint))];
  for (const row of await store.rows(`SELECT slot, "timestamp" FROM blocks WHERE slot IN (${slots.map(sqlInteger).join(', ')})`)) {
    times.set(row.slot as bigint, row.timestamp as bigint);
  }
  return top.map((r) => {
    const row = table.get(r)!.toJSON() as Record<string, unknown>;
    return topTransactionRecord(rowToTopEntry({ ...row, timestamp: times.get(row.slot as bigint) }), window, windowNs, end);
  });
}

/** Rows of the fee-paying transactions of `table` with the highest priority fee, ties newer first (slot, then index). */
function topRows(table: Table, count: number): number[] {
  const price = table.getChild('compute_unit_price')!.toArray() as BigUint64Array;
  const vote = table.getChild('is_vote')!;
  const fee = table.getChild('priority_fee')!.toArray() as BigUint64Array;
  const slot = table.getChild('slot')!.toArray() as BigUint64Array;
  const index = table.getChild('index')!.toArray() as Uint32Array;
  const before = (a: number, b: number) =>
    fee[a] !== fee[b] ? fee[a]! > fee[b]! : slot[a] !== slot[b] ? slot[a]! > slot[b]! : index[a]! > index[b]!;
  // the best `count` so far, best first: a row enters only when it beats the last (most rows do not)
  const top: number[] = [];
  for (let i = 0; i < table.numRows; i++) {
    if (price[i] === 0n || vote.get(i)) continue;
    if (top.length === count && !before(i, top[count - 1]!)) continue;
    let at = top.length;
    while (at > 0 && before(i, top[at - 1]!)) at--;
    top.splice(at, 0, i);
    if (top.length > count) top.pop();
  }
  return top;
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
