/**
 * A chunk's trades as the market kernels read them: grouped by pair (pairs sorted by base, then
 * quote), each pair's trades in order-key order (slot, tx_index, fill_index), with the
 * decimal-adjusted volumes and the price of each trade computed once from the exact raw amounts
 * (src/schema/amounts.ts: one rounding from the exact rational, the same numbers as
 * chain::market::trades).
 */
import type { Table } from 'apache-arrow';
import { decimalAmount, tradePrice } from '../schema/amounts.js';
import { pairKey } from './pairs.js';

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
const EXACT_INTEGER = 2n ** 53n;

/**
 * raw / 10^decimals correctly rounded: `decimalAmount`, with a fast path when both operands are
 * exact floats (then one IEEE division is the correctly rounded quotient, the same number).
 */
export function volumeOf(raw: bigint, decimals: number): number {
  return raw <= EXACT_INTEGER && decimals < POW10.length ? Number(raw) / POW10[decimals]! : decimalAmount(raw, decimals);
}

const made = new WeakMap<Table, ChunkTrades>();

/** `chunkTrades` of a chunk's table, made once for every engine that reads it. */
export function chunkTradesOf(table: Table): ChunkTrades {
  let trades = made.get(table);
  if (!trades) made.set(table, (trades = chunkTrades(table)));
  return trades;
}

/** Splits a chunk's trades table into per-pair ranges in order-key order. */
export function chunkTrades(table: Table): ChunkTrades {
  const n = table.numRows;
  const slots = table.getChild('slot')!.toArray() as BigUint64Array;
  const txIndex = table.getChild('tx_index')!.toArray() as Uint32Array;
  const fillIndex = table.getChild('fill_index')!.toArray() as Uint32Array;
  const times = table.getChild('timestamp')!.toArray() as BigInt64Array;
  const bases = table.getChild('base')!;
  const quotes = table.getChild('quote')!;
  const baseAmounts = table.getChild('base_amount')!.toArray() as BigUint64Array;
  const quoteAmounts = table.getChild('quote_amount')!.toArray() as BigUint64Array;
  const baseDecimals = table.getChild('base_decimals')!.toArray() as Uint8Array;
  const quoteDecimals = table.getChild('quote_decimals')!.toArray() as Uint8Array;
  const isBuy = table.getChild('is_buy')!;

  const pairIds = new Map<string, number>();
  const pairOf = new Int32Array(n);
  const pairNames: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const base = bases.get(i) as string;
    const quote = quotes.get(i) as string;
    const key = pairKey(base, quote);
    let id = pairIds.get(key);
    if (id === undefined) {
      id = pairNames.length;
      pairIds.set(key, id);
      pairNames.push([base, quote]);
    }
    pairOf[i] = id;
  }
  const rank = new Int32Array(pairNames.length);
  pairNames
    .map((_, id) => id)
    .sort((a, b) => compareText(pairNames[a]![0], pairNames[b]![0]) || compareText(pairNames[a]![1], pairNames[b]![1]))
    .forEach((id, r) => (rank[id] = r));

  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) =>
    rank[pairOf[a]!]! - rank[pairOf[b]!]! ||
    (slots[a]! < slots[b]! ? -1 : slots[a]! > slots[b]! ? 1 : txIndex[a]! - txIndex[b]! || fillIndex[a]! - fillIndex[b]!));

  const out = {
    pairs: [] as PairRange[],
    slot: new BigInt64Array(n),
    time: new BigInt64Array(n),
    baseVolume: new Float64Array(n),
    quoteVolume: new Float64Array(n),
    price: new Float64Array(n),
    isBuy: new Uint8Array(n),
    rows: order,
  };
  let from = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    out.slot[k] = BigInt.asIntN(64, slots[i]!);
    out.time[k] = times[i]!;
    out.baseVolume[k] = volumeOf(baseAmounts[i]!, baseDecimals[i]!);
    out.quoteVolume[k] = volumeOf(quoteAmounts[i]!, quoteDecimals[i]!);
    out.price[k] = tradePrice(baseAmounts[i]!, baseDecimals[i]!, quoteAmounts[i]!, quoteDecimals[i]!);
    out.isBuy[k] = isBuy.get(i) ? 1 : 0;
    if (k + 1 === n || pairOf[order[k + 1]!] !== pairOf[i]) {
      const [base, quote] = pairNames[pairOf[i]!]!;
      out.pairs.push({ base, quote, from, to: k + 1 });
      from = k + 1;
    }
  }
  return out;
}

/** Byte order of base58 text (what DuckDB's VARCHAR ordering gives): plain code-unit comparison. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
