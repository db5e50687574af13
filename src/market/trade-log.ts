/**
 * chain::market::trades from resident columns: every commit's trades copied into compact columns
 * (trade-columns.ts: numbers as typed arrays, each pair an id in this log's table of pairs, each
 * signer an id in its dictionary of keys, the signature as its packed digits), with the order the
 * answers read them in (slot, tx_index, fill_index) and each pair's rows in that order (from
 * `chunkTrades`, which the market engine makes anyway). An answer, live or as of a time, walks
 * the segments newest first and makes row objects for the trades it returns only. Retention drops
 * whole segments before its cut and hides the rows before it in the segment that straddles it.
 */
import type { Table } from 'apache-arrow';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { TradeRow } from '../schema/tables.js';
import { compareU64, wordsOf } from '../schema/u64-words.js';
import { BlockUpdates, NO_DEMAND, type StreamDemand } from '../stream/updates.js';
import { TimeSlices, type Steps } from '../platform/event-loop.js';
import { AccountKeys, KeyCompaction, keysMoved, type IdMove } from '../store/account-keys.js';
import { lowerBound } from '../windows/lower-bound.js';
import { chunkTradesOf } from './chunk-trades.js';
import { pairKey, type PairFilter } from './pairs.js';
import { tradeColumns, tradeRowAt, type TradeColumns } from './trade-columns.js';
import { tradeRecord } from './trade-records.js';

const METHOD = 'chain::market::trades';

/** One commit's trades. */
interface Segment {
  readonly columns: TradeColumns;
  /** Rows in answer order reversed (slot, tx_index, fill_index ascending). */
  readonly order: Uint32Array;
  /**
   * Each pair's rows in the same order: pair pairIds[k] (ids ascending) has rows
   * pairRows[pairFrom[k]..pairTo[k]) (typed arrays, not an object a pair: a commit trades ~1,300 pairs).
   */
  readonly pairIds: Uint32Array;
  readonly pairFrom: Uint32Array;
  readonly pairTo: Uint32Array;
  readonly pairRows: Uint32Array;
  /** Sign of row a's order key (slot, tx_index, fill_index) minus row b's. */
  readonly compare: (a: number, b: number) => number;
  readonly firstTime: bigint;
  readonly lastTime: bigint;
}

/** The rows of pair `id` in `segment` (none when it did not trade there). */
function rowsOf(segment: Segment, id: number): Uint32Array | undefined {
  const k = lowerBound(segment.pairIds, id);
  return segment.pairIds[k] === id ? segment.pairRows.subarray(segment.pairFrom[k]!, segment.pairTo[k]!) : undefined;
}

/**
 * Sign of row a's order key (slot, tx_index, fill_index) minus row b's. Made apart from
 * `segmentOf`: a closure there would share its scope, and keep the chunk's `chunkTrades` (about
 * 40 bytes a trade) for as long as the segment.
 */
function orderKeyComparison(columns: TradeColumns): (a: number, b: number) => number {
  const slots = wordsOf(columns.slot);
  const { txIndex, fillIndex } = columns;
  return (a, b) => compareU64(slots, a, b) || txIndex[a]! - txIndex[b]! || fillIndex[a]! - fillIndex[b]!;
}

/** A segment of a chunk's trades table, their pairs' ids from `pairId`, their signers interned into `keys`. */
function* segmentOf(table: Table, pairId: (base: string, quote: string) => number, keys: AccountKeys): Steps<Segment> {
  const trades = chunkTradesOf(table);
  const ids = trades.pairs.map((p) => pairId(p.base, p.quote));
  const pair = new Uint32Array(table.numRows);
  trades.pairs.forEach((p, k) => {
    for (let j = p.from; j < p.to; j++) pair[trades.rows[j]!] = ids[k]!;
  });
  const columns = yield* tradeColumns(table, pair, keys);
  const byId = ids.map((_, k) => k).sort((a, b) => ids[a]! - ids[b]!);
  const { timestamp } = columns;
  const compare = orderKeyComparison(columns);
  const order = new Uint32Array(columns.txIndex.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  let sorted = true;
  for (let i = 1; i < order.length && sorted; i++) sorted = compare(i - 1, i) < 0;
  if (!sorted) order.sort(compare);
  return {
    columns, order, compare,
    pairIds: Uint32Array.from(byId, (k) => ids[k]!),
    pairFrom: Uint32Array.from(byId, (k) => trades.pairs[k]!.from),
    pairTo: Uint32Array.from(byId, (k) => trades.pairs[k]!.to),
    pairRows: trades.rows,
    // block times never go back (the pipeline's rule), so the first and last rows bound the segment
    firstTime: timestamp[order[0]!]!, lastTime: timestamp[order[order.length - 1]!]!,
  };
}

/** `segment` with its signers' ids moved to another dictionary. */
const moved = (segment: Segment, keys: AccountKeys, move: IdMove): Segment =>
  ({ ...segment, columns: { ...segment.columns, keys, signer: move(segment.columns.signer) } });

/** The trades of every commit, as columns; fed by the pipeline, one commit at a time. */
export class TradeLog implements ChunkObserver {
  #segments: Segment[] = [];
  /** The signers of every segment, interned (compacted when retention has left most unused). */
  #signers = new AccountKeys();
  /** When the signers' dictionary is worth compacting. */
  readonly #compaction = new KeyCompaction();
  /** Every pair seen: pair id i is #pairs[i]. */
  readonly #pairs: { readonly base: string; readonly quote: string }[] = [];
  readonly #pairIds = new Map<string, number>();
  readonly #pairOf = (id: number) => this.#pairs[id]!;
  /** The pairs traded, by base and by quote (their ids), for the filters on one side. */
  readonly #byBase = new Map<string, Set<number>>();
  readonly #byQuote = new Map<string, Set<number>>();
  /** Retention's cut: rows before it are gone. */
  #cut: bigint | undefined;

  constructor(private readonly demand: StreamDemand = NO_DEMAND) {}

  /** The dictionary the signers are interned into (replaced when compacted). */
  get signers(): AccountKeys {
    return this.#signers;
  }

  /**
   * The newest `limit` trades that match `filter`, newest first (slot, tx_index, fill_index
   * descending); with `before`, only those with timestamp < before (an as-of answer); with
   * `from`, none before it (the store's cut, which moves before this log is told at publication).
   */
  newest(filter: PairFilter, limit: number, before?: bigint, from?: bigint): TradeRow[] {
    const out: TradeRow[] = [];
    const ids = this.#pairsOf(filter);
    const cut = from === undefined || (this.#cut !== undefined && this.#cut > from) ? this.#cut : from;
    for (let s = this.#segments.length - 1; s >= 0 && out.length < limit; s--) {
      const segment = this.#segments[s]!;
      if (before !== undefined && segment.firstTime >= before) continue;
      if (cut !== undefined && segment.lastTime < cut) break;
      const lists = ids === undefined ? [segment.order] : [...ids].map((id) => rowsOf(segment, id)).filter((l) => l !== undefined);
      const at = lists.map((l) => l.length - 1);
      const { compare, columns } = segment;
      const times = columns.timestamp;
      while (out.length < limit) {
        // the newest head among the lists (a handful: the pairs of one base or quote at most)
        let best = -1;
        for (let k = 0; k < lists.length; k++) {
          if (at[k]! < 0) continue;
          if (best < 0 || compare(lists[k]![at[k]!]!, lists[best]![at[best]!]!) > 0) best = k;
        }
        if (best < 0) break;
        const i = lists[best]![at[best]!--]!;
        if (before !== undefined && times[i]! >= before) continue; // newer than the as-of time
        if (cut !== undefined && times[i]! < cut) break; // older rows are all gone too
        out.push(tradeRowAt(columns, i, this.#pairOf));
      }
    }
    return out;
  }

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    if (!chunk.trades || chunk.trades.numRows === 0) return { records: [], apply() {} };
    const made = await new TimeSlices().run(segmentOf(chunk.trades, (base, quote) => this.#pairId(base, quote), this.#signers));
    const updates = new BlockUpdates();
    if (this.demand.has(METHOD)) {
      // each block's trades newest first, as the query answers them
      for (let k = made.order.length - 1; k >= 0; k--) {
        const row = tradeRowAt(made.columns, made.order[k]!, this.#pairOf);
        updates.add(METHOD, row.slot, row.timestamp, tradeRecord(row));
      }
    }
    return {
      records: [],
      apply: () => {
        // retention may have compacted the dictionary since the signers were interned
        const keys = made.columns.keys;
        this.#segments.push(keys === this.#signers ? made : moved(made, this.#signers, keysMoved(keys, this.#signers, [made.columns.signer])));
        for (const id of made.pairIds) {
          const { base, quote } = this.#pairOf(id);
          setOf(this.#byBase, base).add(id);
          setOf(this.#byQuote, quote).add(id);
        }
        return updates.list();
      },
    };
  }

  /** Retention has moved its cut: the segments wholly before it go; the rows before it are no longer answered. */
  pruned(cut: bigint): void {
    this.#cut = cut;
    const keep = this.#segments.findIndex((s) => s.lastTime >= cut);
    this.#segments = keep < 0 ? [] : this.#segments.slice(keep);
    const compacted = this.#compaction.compact(this.#signers, () => this.#segments.map((s) => s.columns.signer));
    if (compacted) {
      this.#signers = compacted.keys;
      this.#segments = this.#segments.map((s) => moved(s, compacted.keys, compacted.move));
    }
  }

  /** The id of a pair, given on first sight. */
  #pairId(base: string, quote: string): number {
    const key = pairKey(base, quote);
    let id = this.#pairIds.get(key);
    if (id === undefined) {
      id = this.#pairs.push({ base, quote }) - 1;
      this.#pairIds.set(key, id);
    }
    return id;
  }

  /** The ids of the pairs a filter matches; undefined for every trade. */
  #pairsOf(filter: PairFilter): ReadonlySet<number> | undefined {
    if (filter.base !== undefined && filter.quote !== undefined) {
      const id = this.#pairIds.get(pairKey(filter.base, filter.quote));
      return new Set(id === undefined ? [] : [id]);
    }
    if (filter.base !== undefined) return this.#byBase.get(filter.base) ?? new Set();
    if (filter.quote !== undefined) return this.#byQuote.get(filter.quote) ?? new Set();
    return undefined;
  }
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}
