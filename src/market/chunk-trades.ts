/**
 * A chunk's trades as the market kernels read them: grouped by pair (pairs sorted by base, then
 * quote), each pair's trades in order-key order (slot, tx_index, fill_index), with the
 * decimal-adjusted volumes and the price of each trade computed once from the exact raw amounts
 * (src/schema/amounts.ts: one rounding from the exact rational, the same numbers as
 * chain::market::trades).
 */
import type { Table } from 'apache-arrow';
import { decimalAmount, tradePrice } from '../schema/amounts.js';
import { AccountKeys } from '../store/account-keys.js';
import { runToEnd } from '../platform/event-loop.js';
import { boolBytes, compareU64, gatherU64, HIGH, LOW, wordsOf } from '../schema/u64-words.js';

/** One pair's trades: rows [from, to) of the chunk columns. */
export interface PairRange {
  readonly base: string;
  readonly quote: string;
  readonly from: number;
  readonly to: number;
}

/** Trade columns of a chunk, pair after pair. */
export interface ChunkTrades {
  readonly pairs: readonly PairRange[];
  readonly slot: BigInt64Array;
  /** Block time, ns. */
  readonly time: BigInt64Array;
  readonly baseVolume: Float64Array;
  readonly quoteVolume: Float64Array;
  /** Quote per base, from the raw amounts. */
  readonly price: Float64Array;
  readonly isBuy: Uint8Array;
  /** Row of the chunk's table at each position (pair after pair, each in order-key order). */
  readonly rows: Uint32Array;
}

/** Exact powers of ten as floats (every one up to 1e22 is representable). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** High words below this make a u64 below 2^53: an exact double. */
const EXACT_HIGH = 2 ** 21;

/**
 * Amount i of a u64 column (`words`, its 32-bit words) over 10^decimals, correctly rounded
 * (`decimalAmount`), with no BigInt when both operands are exact floats: then one IEEE division
 * is the correctly rounded quotient, the same number.
 */
function volumeAt(words: Uint32Array, amounts: BigUint64Array, i: number, decimals: number): number {
  const amount = exactAt(words, i);
  return amount === undefined || decimals >= POW10.length ? decimalAmount(amounts[i]!, decimals) : amount / POW10[decimals]!;
}

/** u64 i of `words` as a double when it is exact (below 2^53). */
function exactAt(words: Uint32Array, i: number): number | undefined {
  const high = words[2 * i + HIGH]!;
  return high < EXACT_HIGH ? high * 2 ** 32 + words[2 * i + LOW]! : undefined;
}

/** A chunk's trade amounts: the u64 columns, their 32-bit words, and the decimals. */
interface TradeAmounts {
  readonly base: BigUint64Array;
  readonly quote: BigUint64Array;
  readonly baseWords: Uint32Array;
  readonly quoteWords: Uint32Array;
  readonly baseDecimals: Uint8Array;
  readonly quoteDecimals: Uint8Array;
}

/**
 * `tradePrice` of trade i: (quote x 10^bd) / (base x 10^qd), the powers of ten reduced to one
 * side. When both sides are exact doubles below 2^53 (as for most trades), one IEEE division is
 * the correctly rounded quotient, the same number as the exact rational's; else the BigInt path.
 */
function priceAt(t: TradeAmounts, i: number): number {
  const base = exactAt(t.baseWords, i);
  const quote = exactAt(t.quoteWords, i);
  const shift = t.baseDecimals[i]! - t.quoteDecimals[i]!;
  if (base !== undefined && quote !== undefined && base > 0 && Math.abs(shift) < POW10.length) {
    // a product of integers below 2^53 is exact; one at or above it stays at or above it when rounded
    const num = shift >= 0 ? quote * POW10[shift]! : quote;
    const den = shift >= 0 ? base : base * POW10[-shift]!;
    if (num < 2 ** 53 && den < 2 ** 53) return num / den;
  }
  return tradePrice(t.base[i]!, t.baseDecimals[i]!, t.quote[i]!, t.quoteDecimals[i]!);
}

const made = new WeakMap<Table, ChunkTrades>();

/**
 * The mints trades name, interned from their UTF-8 bytes: one dictionary for the process, as the
 * mints are few (a token universe) and recur in every chunk.
 */
let mints: AccountKeys | undefined;
/** Each interned mint's text, made once. */
const mintNames: string[] = [];
const mintName = (id: number): string => (mintNames[id] ??= mints!.keyOf(id));

/** `chunkTrades` of a chunk's table, made once for every engine that reads it. */
export function chunkTradesOf(table: Table): ChunkTrades {
  let trades = made.get(table);
  if (!trades) made.set(table, (trades = chunkTrades(table)));
  return trades;
}

/** Splits a chunk's trades table into per-pair ranges in order-key order. */
export function chunkTrades(table: Table): ChunkTrades {
  const n = table.numRows;
  const slotValues = table.getChild('slot')!.toArray() as BigUint64Array;
  const slots = wordsOf(slotValues);
  const txIndex = table.getChild('tx_index')!.toArray() as Uint32Array;
  const fillIndex = table.getChild('fill_index')!.toArray() as Uint32Array;
  const bases = table.getChild('base')!;
  const quotes = table.getChild('quote')!;
  const baseAmount = table.getChild('base_amount')!.toArray() as BigUint64Array;
  const quoteAmount = table.getChild('quote_amount')!.toArray() as BigUint64Array;
  const amounts: TradeAmounts = {
    base: baseAmount, quote: quoteAmount, baseWords: wordsOf(baseAmount), quoteWords: wordsOf(quoteAmount),
    baseDecimals: table.getChild('base_decimals')!.toArray() as Uint8Array,
    quoteDecimals: table.getChild('quote_decimals')!.toArray() as Uint8Array,
  };

  // each row's pair from its mints' ids: no string is made per row (that was most of this pass)
  const baseIds = runToEnd((mints ??= new AccountKeys()).internRows(bases));
  const quoteIds = runToEnd(mints.internRows(quotes));
  const pairIds = new Map<number, number>();
  const pairOf = new Int32Array(n);
  const pairNames: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const key = baseIds[i]! * 2 ** 32 + quoteIds[i]!;
    let id = pairIds.get(key);
    if (id === undefined) {
      id = pairNames.length;
      pairIds.set(key, id);
      pairNames.push([mintName(baseIds[i]!), mintName(quoteIds[i]!)]);
    }
    pairOf[i] = id;
  }
  const byName = pairNames.map((_, id) => id)
    .sort((a, b) => compareText(pairNames[a]![0], pairNames[b]![0]) || compareText(pairNames[a]![1], pairNames[b]![1]));
  const rank = new Int32Array(pairNames.length);
  byName.forEach((id, r) => (rank[id] = r));
  const order = pairOrder(n, rank, pairOf, (a, b) => compareU64(slots, a, b) || txIndex[a]! - txIndex[b]! || fillIndex[a]! - fillIndex[b]!);

  const out = {
    pairs: [] as PairRange[],
    // a slot below 2^63 (every real one) is the same 64 bits as an i64
    slot: new BigInt64Array(gatherU64(slotValues, order).buffer),
    time: gatherU64(table.getChild('timestamp')!.toArray() as BigInt64Array, order),
    baseVolume: new Float64Array(n),
    quoteVolume: new Float64Array(n),
    price: new Float64Array(n),
    isBuy: boolBytes(table.getChild('is_buy')!, order),
    rows: order,
  };
  let from = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    out.baseVolume[k] = volumeAt(amounts.baseWords, baseAmount, i, amounts.baseDecimals[i]!);
    out.quoteVolume[k] = volumeAt(amounts.quoteWords, quoteAmount, i, amounts.quoteDecimals[i]!);
    out.price[k] = priceAt(amounts, i);
    if (k + 1 === n || pairOf[order[k + 1]!] !== pairOf[i]) {
      const [base, quote] = pairNames[pairOf[i]!]!;
      out.pairs.push({ base, quote, from, to: k + 1 });
      from = k + 1;
    }
  }
  return out;
}

/**
 * Rows 0..n-1 ordered by the rank of their pair, then by `compare`. Rows usually come in
 * `compare` order already (dumps are in slot order): then a stable counting sort by pair keeps it,
 * one pass each way instead of a comparison sort.
 */
function pairOrder(n: number, rank: Int32Array, pairOf: Int32Array, compare: (a: number, b: number) => number): Uint32Array {
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = compare(i - 1, i) <= 0;
  if (!sorted) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => rank[pairOf[a]!]! - rank[pairOf[b]!]! || compare(a, b));
  }
  const starts = new Uint32Array(rank.length + 1);
  for (let i = 0; i < n; i++) starts[rank[pairOf[i]!]! + 1]!++;
  for (let r = 0; r < rank.length; r++) starts[r + 1]! += starts[r]!;
  for (let i = 0; i < n; i++) order[starts[rank[pairOf[i]!]!]!++] = i;
  return order;
}

/** Byte order of base58 text (what DuckDB's VARCHAR ordering gives): plain code-unit comparison. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
