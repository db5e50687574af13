/**
 * A commit's trades as the trade log keeps them: copied out of the input table into compact
 * columns, so that the input's buffers (a Parquet batch's whole IPC message: ~290 bytes a trade,
 * most of it base58 text) can go. Numbers stay typed arrays (u64 exact), each row's pair is an
 * id in the log's table of pairs, its signer an id in the log's dictionary of keys, and its
 * signature as its digits packed, 66 bytes (signature-values.ts): ~120 bytes a trade.
 */
import type { Table } from 'apache-arrow';
import { keepSignatureColumn, signatureAt, type SignatureValues } from '../ingest/signature-values.js';
import type { Steps } from '../platform/event-loop.js';
import type { TradeRow } from '../schema/tables.js';
import { boolBytes } from '../schema/u64-words.js';
import type { AccountKeys } from '../store/account-keys.js';

export interface TradeColumns {
  readonly slot: BigUint64Array;
  readonly txIndex: Uint32Array;
  readonly fillIndex: Uint32Array;
  readonly timestamp: BigInt64Array;
  readonly baseAmount: BigUint64Array;
  readonly quoteAmount: BigUint64Array;
  readonly baseDecimals: Uint8Array;
  readonly quoteDecimals: Uint8Array;
  readonly isBuy: Uint8Array;
  /** Each row's pair: an id in the log's table of pairs. */
  readonly pair: Uint32Array;
  readonly signature: SignatureValues;
  /** Each row's signer: an id in `keys`. */
  readonly signer: Uint32Array;
  readonly keys: AccountKeys;
}

/** A column's values in an array of their own (a view of the input's buffer would keep all of it). */
function own<T extends BigUint64Array | BigInt64Array | Uint32Array | Uint8Array>(table: Table, name: string): T {
  const values = table.getChild(name)!.toArray() as T;
  return values.slice() as T;
}

/** The columns of a chunk's trades table, with each row's pair id; the signers interned into `keys` a kernel batch a step. */
export function* tradeColumns(table: Table, pair: Uint32Array, keys: AccountKeys): Steps<TradeColumns> {
  return {
    slot: own(table, 'slot'), txIndex: own(table, 'tx_index'), fillIndex: own(table, 'fill_index'), timestamp: own(table, 'timestamp'),
    baseAmount: own(table, 'base_amount'), quoteAmount: own(table, 'quote_amount'),
    baseDecimals: own(table, 'base_decimals'), quoteDecimals: own(table, 'quote_decimals'),
    isBuy: boolBytes(table.getChild('is_buy')!),
    pair,
    signature: keepSignatureColumn(table.getChild('signature')!),
    signer: yield* keys.internRows(table.getChild('signer')!),
    keys,
  };
}

/** Row i as the canonical row (`pairOf`: the pair of an id). */
export function tradeRowAt(c: TradeColumns, i: number, pairOf: (id: number) => { base: string; quote: string }): TradeRow {
  const { base, quote } = pairOf(c.pair[i]!);
  return {
    signature: signatureAt(c.signature, i), signer: c.keys.keyOf(c.signer[i]!),
    slot: c.slot[i]!, tx_index: c.txIndex[i]!, fill_index: c.fillIndex[i]!, timestamp: c.timestamp[i]!,
    base, quote, base_amount: c.baseAmount[i]!, quote_amount: c.quoteAmount[i]!,
    base_decimals: c.baseDecimals[i]!, quote_decimals: c.quoteDecimals[i]!, is_buy: c.isBuy[i] === 1,
  };
}
