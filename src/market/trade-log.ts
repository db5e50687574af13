/**
 * chain::market::trades from resident columns: every commit's trades stay as the Arrow table they
 * came in (strings as UTF-8 bytes, amounts as u64 columns), with the order the answers read them in
 * (slot, tx_index, fill_index) and each pair's rows in that order (from `chunkTrades`, which the
 * market engine makes anyway). An answer, live or as of a time, walks the segments newest first
 * and makes row objects for the trades it returns only. Retention drops whole segments before its
 * cut and hides the rows before it in the segment that straddles it.
 */
import type { Table } from 'apache-arrow';
import { rowReader } from '../ingest/arrow.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { TradeRow } from '../schema/tables.js';
import { compareU64, wordsOf } from '../schema/u64-words.js';
import { BlockUpdates, NO_DEMAND, type StreamDemand } from '../stream/updates.js';
import { chunkTradesOf } from './chunk-trades.js';
import { pairKey, type PairFilter } from './pairs.js';
import { tradeRecord } from './trade-records.js';

const METHOD = 'chain::market::trades';

/** One commit's trades. */
interface Segment {
  /** Rows in answer order reversed (slot, tx_index, fill_index ascending). */
  readonly order: Uint32Array;
  /** Each pair's rows, in the same order, by pair key. */
  readonly pairs: ReadonlyMap<string, Uint32Array>;
  /** The pairs that traded. */
  readonly pairList: readonly { readonly base: string; readonly quote: string }[];
  /** Sign of row a's order key (slot, tx_index, fill_index) minus row b's. */
  readonly compare: (a: number, b: number) => number;
  readonly times: BigInt64Array;
  readonly firstTime: bigint;
  readonly lastTime: bigint;
  readonly row: (i: number) => TradeRow;
}

/** A segment of a chunk's trades table. */
function segmentOf(table: Table): Segment {
  const trades = chunkTradesOf(table);
  const slots = wordsOf(table.getChild('slot')!.toArray() as BigUint64Array);
  const txIndex = table.getChild('tx_index')!.toArray() as Uint32Array;
  const fillIndex = table.getChild('fill_index')!.toArray() as Uint32Array;
  const times = table.getChild('timestamp')!.toArray() as BigInt64Array;
  const compare = (a: number, b: number) => compareU64(slots, a, b) || txIndex[a]! - txIndex[b]! || fillIndex[a]! - fillIndex[b]!;
  const order = new Uint32Array(table.numRows);
  for (let i = 0; i < order.length; i++) order[i] = i;
  let sorted = true;
  for (let i = 1; i < order.length && sorted; i++) sorted = compare(i - 1, i) < 0;
  if (!sorted) order.sort(compare);
  const pairs = new Map(trades.pairs.map((p) => [pairKey(p.base, p.quote), trades.rows.subarray(p.from, p.to)]));
  // block times never go back (the pipeline's rule), so the first and last rows bound the segment
  return {
    order, pairs, pairList: trades.pairs, compare, times,
    firstTime: times[order[0]!]!, lastTime: times[order[order.length - 1]!]!,
    row: rowReader('trades', table),
  };
}

/** The trades of every commit, as columns; fed by the pipeline, one commit at a time. */
export class TradeLog implements ChunkObserver {
  #segments: Segment[] = [];
  /** The pairs seen, by base and by quote (their keys), for the filters on one side. */
  readonly #byBase = new Map<string, Set<string>>();
  readonly #byQuote = new Map<string, Set<string>>();
  /** Retention's cut: rows before it are gone. */
  #cut: bigint | undefined;

  constructor(private readonly demand: StreamDemand = NO_DEMAND) {}

  /**
   * The newest `limit` trades that match `filter`, newest first (slot, tx_index, fill_index
   * descending); with `before`, only those with timestamp < before (an as-of answer); with
   * `from`, none before it (the store's cut, which moves before this log is told at publication).
   */
  newest(filter: PairFilter, limit: number, before?: bigint, from?: bigint): TradeRow[] {
    const out: TradeRow[] = [];
    const keys = this.#keys(filter);
    const cut = from === undefined || (this.#cut !== undefined && this.#cut > from) ? this.#cut : from;
    for (let s = this.#segments.length - 1; s >= 0 && out.length < limit; s--) {
      const segment = this.#segments[s]!;
      if (before !== undefined && segment.firstTime >= before) continue;
      if (cut !== undefined && segment.lastTime < cut) break;
      const lists = keys === undefined ? [segment.order] : [...keys].map((k) => segment.pairs.get(k)).filter((l) => l !== undefined);
      const at = lists.map((l) => l.length - 1);
      const { compare, times } = segment;
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
        out.push(segment.row(i));
      }
    }
    return out;
  }

  prepare(chunk: ChunkView): ChunkEffect {
    if (!chunk.trades || chunk.trades.numRows === 0) return { records: [], apply() {} };
    const segment = segmentOf(chunk.trades);
    const updates = new BlockUpdates();
    if (this.demand.has(METHOD)) {
      // each block's trades newest first, as the query answers them
      for (let k = segment.order.length - 1; k >= 0; k--) {
        const row = segment.row(segment.order[k]!);
        updates.add(METHOD, row.slot, row.timestamp, tradeRecord(row));
      }
    }
    return {
      records: [],
      apply: () => {
        this.#segments.push(segment);
        for (const { base, quote } of segment.pairList) {
          setOf(this.#byBase, base).add(pairKey(base, quote));
          setOf(this.#byQuote, quote).add(pairKey(base, quote));
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
  }

  /** The pair keys a filter matches; undefined for every trade. */
  #keys(filter: PairFilter): ReadonlySet<string> | undefined {
    if (filter.base !== undefined && filter.quote !== undefined) return new Set([pairKey(filter.base, filter.quote)]);
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
