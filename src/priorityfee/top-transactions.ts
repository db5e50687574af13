/**
 * chain::priorityfee::top_txs entries and records: a fee-paying transaction of the trailing window
 * as the top list (top-tracker.ts) keeps it, and its record.
 */
import { BEST_PER_BLOCK } from '../ingest/block-columns.js';
import { utf8At } from '../ingest/utf8-values.js';
import { recordId } from '../schema/ids.js';
import type { TopTransactionRecord } from '../schema/records.js';
import type { TransactionsView } from '../store/transaction-segments.js';

/**
 * At most this many data points, whatever the limit (the seed: "up to 100 data points"); the store
 * keeps the text of each block's best this many fee payers (BEST_PER_BLOCK).
 */
export const TOP_TRANSACTIONS_CAP = BEST_PER_BLOCK;

/** Where an entry's text is: row `row` of a store segment's kept text (decoded only when answered). */
export interface TextRef {
  readonly text: TransactionsView['text'];
  readonly row: number;
}

/** One fee-paying transaction as the top list knows it. */
export interface TopEntry {
  /** Its signature, signer and program. */
  text: TextRef;
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

/** The record of an entry in the top list of the window [end - w, end). */
export function topTransactionRecord(e: TopEntry, window: string, windowNs: bigint, end: bigint): TopTransactionRecord {
  const { text, row } = e.text;
  const signature = utf8At(text.signature, row);
  return {
    id: recordId('chain::priorityfee::top_txs', window, signature),
    signature,
    signer: text.keys.keyOf(text.signer[row]!),
    program: text.keys.keyOf(text.program[row]!),
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
