/**
 * chain::priorityfee::top_txs entries and records: a fee-paying transaction of the trailing window
 * as the top list (top-tracker.ts) keeps it, and its record.
 */
import { BEST_PER_BLOCK } from '../ingest/block-columns.js';
import { FileSignatures, signatureAt } from '../ingest/signature-values.js';
import { recordId } from '../schema/ids.js';
import type { TopTransactionRecord } from '../schema/records.js';
import type { TransactionsView } from '../store/transaction-segments.js';

/**
 * At most this many data points, whatever the limit (the seed: "up to 100 data points"); the store
 * keeps the text of each block's best this many fee payers (BEST_PER_BLOCK).
 */
export const TOP_TRANSACTIONS_CAP = BEST_PER_BLOCK;

/**
 * One fee-paying transaction as the top list knows it: kept transaction `k` of a store segment
 * (its fee columns and text are read from there when it is answered), with what ranks it.
 */
export interface TopEntry {
  /** The segment, and the position in its kept transactions (`kept`, `text`). */
  readonly view: TransactionsView;
  readonly k: number;
  readonly slot: bigint;
  /** Index in its block (breaks ties of fee and slot: higher first). */
  readonly index: number;
  readonly timestamp: bigint;
  readonly fee: bigint;
  /**
   * Its signature's text and its record's id, made when first answered and kept (undefined until
   * then, set at creation so that every entry has one shape): a streamed list answers the same
   * entries after every block, and the text is rebuilt from packed digits.
   */
  texts: { readonly window: string; readonly signature: string; readonly id: number } | undefined;
}

/** The record of an entry in the top list of the window [end - w, end). */
export function topTransactionRecord(e: TopEntry, window: string, windowNs: bigint, end: bigint): TopTransactionRecord {
  const { view: { columns, kept, text }, k } = e;
  const i = kept[k]!;
  if (e.texts?.window !== window) {
    const signature = signatureAt(text.signature, k);
    e.texts = { window, signature, id: recordId('chain::priorityfee::top_txs', window, signature) };
  }
  return {
    id: e.texts.id,
    signature: e.texts.signature,
    signer: text.keys.keyOf(text.signer[k]!),
    program: text.keys.keyOf(text.program[k]!),
    slot: e.slot,
    timestamp: e.timestamp,
    compute_unit_price: columns.computeUnitPrice[i]!,
    compute_unit_limit: columns.computeUnitLimit[i]!,
    compute_units_consumed: columns.consumedKnown[i] ? columns.computeUnitsConsumed[i]! : null,
    total_priority_fee: e.fee,
    window_duration: windowNs,
    window_start: end - windowNs,
    window_end: end,
  };
}

/**
 * Reads back the signatures of the first `count` of `entries` that are still in their file (a load
 * from Parquet leaves them there until first answered).
 */
export async function withSignatures(entries: readonly TopEntry[], count: number): Promise<void> {
  const unread = new Set<FileSignatures>();
  for (let e = 0; e < Math.min(count, entries.length); e++) {
    const { signature } = entries[e]!.view.text;
    if (signature instanceof FileSignatures && !signature.loaded) unread.add(signature);
  }
  await Promise.all([...unread].map((signatures) => signatures.load()));
}
