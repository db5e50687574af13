/**
 * chain::market::trades live: the newest trades in memory, overall and per pair, so that a live
 * query reads a list instead of the store. The store keeps every trade and answers `at` queries,
 * and the live queries that memory cannot answer exactly.
 *
 * Every trade gets a sequence number in the answer order (slot, tx_index, fill_index ascending:
 * chunks come in slot order), so "newer" is a number comparison. Held:
 * - overall, the newest MAX_LIMIT trades: the unfiltered answer, always exact;
 * - per pair, its newest MAX_LIMIT trades, within a budget of HELD_BUDGET trades in all: past it,
 *   the pairs that traded least recently are emptied (each pair remembers the newest of its trades
 *   it let go). A pair's held trades are thus always its newest ones, and an answer merged from the
 *   pairs that match a filter (a pair, a base, a quote) is exact unless a matching pair let go of a
 *   trade newer than the answer's oldest (or of any trade, when the answer is short of the limit):
 *   then `latest` says so and the caller asks the store.
 */
import type { Table } from 'apache-arrow';
import { tableToRows } from '../ingest/arrow.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { TradeRow } from '../schema/tables.js';
import { BlockUpdates, NO_DEMAND, type StreamDemand } from '../stream/updates.js';
import { tradeRecord } from './trade-records.js';
import { mergeOrdered, pairKey, type PairFilter } from './pairs.js';

const METHOD = 'chain::market::trades';
/** The largest limit of chain::market::trades. */
export const MAX_LIMIT = 1000;
/** Trades held in the pairs' lists at most (~400 bytes each): past it, the least recently traded pairs are emptied. */
export const HELD_BUDGET = 50_000;

interface Held {
  readonly seq: number;
  readonly row: TradeRow;
}

/** A list of held trades, oldest first, dropped from the front. */
class HeldList {
  #items: Held[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The newest `limit`, newest first. */
  newestFirst(limit: number): Held[] {
    const out: Held[] = [];
    for (let i = 0; i < Math.min(limit, this.length); i++) out.push(this.newest(i));
    return out;
  }

  /** The i-th newest (0 = newest). */
  newest(i: number): Held {
    return this.#items[this.#items.length - 1 - i]!;
  }

  push(item: Held): void {
    this.#items.push(item);
  }

  /** Drops the `n` oldest; returns the newest of them. */
  dropOldest(n: number): Held | undefined {
    if (n <= 0) return undefined;
    this.#head += n;
    const last = this.#items[this.#head - 1];
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return last;
  }
}

/** One pair's newest trades. */
class PairTrades {
  readonly held = new HeldList();
  /** The sequence number of the newest trade let go (-1: none). */
  dropped = -1;

  constructor(readonly base: string, readonly quote: string) {}

  /** Lets go of the trades past `keep`. */
  trim(keep: number): number {
    const excess = this.held.length - keep;
    const last = this.held.dropOldest(excess);
    if (last) this.dropped = last.seq;
    return Math.max(0, excess);
  }
}

/** The newest trades; fed by the pipeline, one commit at a time. */
export class RecentTrades implements ChunkObserver {
  readonly #all = new HeldList();
  readonly #pairs = new Map<string, PairTrades>();
  readonly #byBase = new Map<string, PairTrades[]>();
  readonly #byQuote = new Map<string, PairTrades[]>();
  /** Pairs holding trades, least recently traded first (a Map keeps insertion order). */
  readonly #recent = new Map<PairTrades, true>();
  #held = 0;
  #nextSeq = 0;

  /** `budget`: trades held in the pairs' lists at most (a test makes it small). */
  constructor(private readonly demand: StreamDemand = NO_DEMAND, private readonly budget = HELD_BUDGET) {}

  /**
   * The newest `limit` (at most MAX_LIMIT) trades that match `filter`, newest first; undefined when
   * memory cannot tell them exactly (see the module comment).
   */
  latest(filter: PairFilter, limit: number): TradeRow[] | undefined {
    if (filter.base === undefined && filter.quote === undefined) return this.#all.newestFirst(limit).map((h) => h.row);
    const pairs = filter.base !== undefined && filter.quote !== undefined
      ? [this.#pairs.get(pairKey(filter.base, filter.quote))].filter((p) => p !== undefined)
      : filter.base !== undefined ? this.#byBase.get(filter.base) ?? [] : this.#byQuote.get(filter.quote!) ?? [];
    const found = mergeOrdered(pairs.map((p) => p.held.newestFirst(limit)), (a, b) => b.seq - a.seq, limit);
    // a pair's trades let go are older than those it holds; they matter when newer than the answer's oldest
    const oldest = found.length === limit ? found[found.length - 1]!.seq : -1;
    if (pairs.some((p) => p.dropped > oldest)) return undefined;
    return found.map((h) => h.row);
  }

  prepare(chunk: ChunkView): ChunkEffect {
    if (!chunk.trades || chunk.trades.numRows === 0) return { records: [], apply() {} };
    const rows = sortedTrades(chunk.trades);
    const updates = new BlockUpdates();
    if (this.demand.has(METHOD)) {
      // each block's trades newest first, as the query answers them
      for (let i = rows.length - 1; i >= 0; i--) updates.add(METHOD, rows[i]!.slot, rows[i]!.timestamp, tradeRecord(rows[i]!));
    }
    return {
      records: [],
      apply: () => {
        for (const row of rows) this.#add(row);
        this.#keepBudget();
        return updates.list();
      },
    };
  }

  #add(row: TradeRow): void {
    const pair = this.#pair(row.base, row.quote);
    row.base = pair.base; // one string per mint, not one per trade
    row.quote = pair.quote;
    const held = { seq: this.#nextSeq++, row };
    this.#all.push(held);
    this.#all.dropOldest(this.#all.length - MAX_LIMIT);
    pair.held.push(held);
    this.#held += 1 - pair.trim(MAX_LIMIT);
    this.#recent.delete(pair);
    this.#recent.set(pair, true);
  }

  /** Empties the least recently traded pairs while more than `budget` trades are held. */
  #keepBudget(): void {
    for (const pair of this.#recent.keys()) {
      if (this.#held <= this.budget) break;
      this.#held -= pair.trim(0);
      this.#recent.delete(pair);
    }
  }

  #pair(base: string, quote: string): PairTrades {
    const key = pairKey(base, quote);
    let pair = this.#pairs.get(key);
    if (!pair) {
      this.#pairs.set(key, (pair = new PairTrades(base, quote)));
      listOf(this.#byBase, base).push(pair);
      listOf(this.#byQuote, quote).push(pair);
    }
    return pair;
  }
}

function listOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** A chunk's trades in answer order reversed: slot, tx_index, fill_index ascending. */
function sortedTrades(table: Table): TradeRow[] {
  return tableToRows('trades', table).sort((a, b) =>
    a.slot !== b.slot ? (a.slot < b.slot ? -1 : 1) : a.tx_index - b.tx_index || a.fill_index - b.fill_index);
}
