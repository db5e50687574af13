/**
 * The market family: the state behind chain::market::block, ohlcv, volume, vwap and twap, and the
 * live answers of token, trades and ingestion (token-book.ts, trade-log.ts, ingestion-log.ts).
 *
 * At ingest (one chunk of whole blocks, in slot order) the market kernels summarise each (slot,
 * pair) once (block-stats.ts); USD prices are applied (usd-prices.ts); once the chunk is
 * committed, every pair's block series, candles and live trailing windows take the new blocks
 * (market-pair.ts).
 *
 * Storage: all in memory, nothing in the store. A pair's block series holds every statistic of its
 * blocks, so chain::market::block merges the matching pairs' series newest first (live and as-of
 * alike); candles and trailing points come from the same series. Materialising a trailing point
 * per pair-block for each of 13 windows and 3 methods (39 rows per pair-block, ~20 million rows a
 * day of the synthetic market) would cost gigabytes; instead each pair keeps its block series
 * (~112 bytes per pair-block) and its finished candles (~100 bytes each, ~1.15 per pair-block),
 * and trailing points are slid from the series with exact sums (as-of answers included).
 *
 * Retention (PruneListener): when the store's cut moves, the market drops its history before it
 * too (market-pair.ts, MarketHorizon): the pairs' blocks before the cut minus the widest live
 * trailing window, the candles that ended by the cut. Answers then list entries from the cut on; an
 * `at` at or before it, and a trailing window or an as-of candle whose blocks are gone, are refused.
 *
 * Streams: once a chunk is committed, each block's new records of the streamed methods (the block
 * records, and per streamed window the pair's candle and trailing point after the block; trades
 * and ingestion from their own observers) are handed to the subscriptions, read from the same live
 * state that answers queries.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { EngineSettings } from '../methods/context.js';
import type { BlockTradesRecord, CandleRecord, TwapRecord, VolumeRecord, VwapRecord } from '../schema/records.js';
import { windowNanos } from '../schema/time.js';
import { prunedHistory, type PruneListener } from '../store/retention.js';
import { windowStart } from '../windows/time-windows.js';
import { BlockUpdates, NO_DEMAND, type StreamDemand, type StreamUpdate } from '../stream/updates.js';
import { blockTradesRecord } from './block-records.js';
import { blockStats, type ChunkBlockStats } from './block-stats.js';
import { candleRecord } from './candle-records.js';
import { chunkTradesOf } from './chunk-trades.js';
import { IngestionLog } from './ingestion-log.js';
import { candlesHeldFrom, MarketPair, pointsHeldFrom, type CandleRange, type MarketHorizon } from './market-pair.js';
import { comparePairs, type OrderedList, matchesPair, mergeOrdered, type PairFilter } from './pairs.js';
import { RecentTradedBlocks } from './recent-blocks.js';
import { TradeLog } from './trade-log.js';
import { TokenBook } from './token-book.js';
import type { TrailingPoint } from './trailing-point.js';
import { twapRecord, volumeRecord, vwapRecord, type PointKey } from './trailing-records.js';
import { UsdPrices } from './usd-prices.js';

const NOTHING: ChunkEffect = { records: [], apply() {} };

const BLOCK = 'chain::market::block';
const OHLCV = 'chain::market::ohlcv';
const TRAILING = [
  ['chain::market::volume', volumeRecord],
  ['chain::market::vwap', vwapRecord],
  ['chain::market::twap', twapRecord],
] as const;
const TRAILING_METHODS = TRAILING.map(([method]) => method);

/** What is streamed during one publication: market blocks, and the windows of the others. */
interface StreamedWindows {
  /** chain::market::block (no window). */
  readonly blocks: boolean;
  readonly candles: readonly string[];
  readonly trailing: readonly { readonly method: (typeof TRAILING)[number][0]; readonly record: (typeof TRAILING)[number][1]; readonly window: string }[];
}

type Keyed = { base: string; quote: string; timestamp: bigint };
const byPair = (a: Keyed, b: Keyed) => comparePairs(a, b);
/** Answer orders within one block's update (all of a block's records share its slot and time). */
const UPDATE_ORDER = {
  [BLOCK]: byPair,
  [OHLCV]: (a: Keyed, b: Keyed) => (a.timestamp !== b.timestamp ? (a.timestamp > b.timestamp ? -1 : 1) : comparePairs(a, b)),
  'chain::market::volume': byPair,
  'chain::market::vwap': byPair,
  'chain::market::twap': byPair,
};

/** The market family's pipeline observer and the query functions of its five methods. */
export class MarketEngine implements ChunkObserver, PruneListener {
  readonly #usd: UsdPrices;
  /** Every pair traded, by base then quote: a pair's two mints look it up by their own (cached) hashes, no key text made. */
  readonly #pairs = new Map<string, Map<string, MarketPair>>();
  /** The newest blocks' traded pairs: what live answers over many pairs walk. */
  readonly #recent = new RecentTradedBlocks();
  /** What retention has dropped (undefined: nothing yet). */
  #horizon: MarketHorizon | undefined;
  /** Time of the newest block with trades. */
  #newest: bigint | undefined;
  /** Set once retention has pruned: every pair keeps a candle book of every width from then on. */
  #allBooks = false;
  /** Every known token (chain::market::token). */
  readonly tokens = new TokenBook();
  /** Every trade, as columns (chain::market::trades, live and as of a time). */
  readonly trades: TradeLog;
  /** The timings of the last 300 slots (chain::market::ingestion, live). */
  readonly ingestion: IngestionLog;

  /** `demand` says what is streamed. */
  constructor(
    private readonly settings: Readonly<EngineSettings>,
    private readonly demand: StreamDemand = NO_DEMAND,
  ) {
    this.#usd = new UsdPrices(() => settings.stablecoins);
    this.trades = new TradeLog(demand);
    this.ingestion = new IngestionLog(demand);
  }

  /** The pipeline observers of this family. */
  get observers(): ChunkObserver[] {
    return [this, this.tokens, this.trades, this.ingestion];
  }

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    if (!chunk.trades || chunk.trades.numRows === 0) return NOTHING;
    const stats = blockStats(chunkTradesOf(chunk.trades), this.settings.outlierThreshold);
    const commitPrices = this.#usd.price(stats);
    return {
      records: [],
      apply: () => {
        commitPrices();
        const updates = new BlockUpdates();
        const streamed = this.#streamedWindows();
        const blocks = new Map<bigint, { time: bigint; pairs: MarketPair[] }>();
        for (const rows of stats.pairs) {
          const pair = this.#pair(rows.base, rows.quote);
          for (let r = rows.from; r < rows.to; r++) {
            this.#push(pair, stats, r, updates, streamed);
            const slot = stats.slot[r]!;
            let block = blocks.get(slot);
            if (!block) blocks.set(slot, (block = { time: stats.time[r]!, pairs: [] }));
            block.pairs.push(pair);
          }
        }
        for (const [, block] of [...blocks].sort(([a], [b]) => (a < b ? -1 : 1))) this.#recent.add(block.time, block.pairs);
        if (stats.rows > 0) this.#newest = stats.time[stats.rows - 1]!;
        return updates.list(UPDATE_ORDER);
      },
    };
  }

  /** What is streamed now: market blocks, candle widths, and trailing windows with their record makers. */
  #streamedWindows(): StreamedWindows {
    const candles = [...this.demand.windows(OHLCV)];
    const trailing = TRAILING.flatMap(([method, record]) => [...this.demand.windows(method)].map((window) => ({ method, record, window })));
    return { blocks: this.demand.has(BLOCK), candles, trailing };
  }

  /** Appends a block to its pair; adds its record, and the candles and trailing points it made, to what is streamed. */
  #push(pair: MarketPair, stats: ChunkBlockStats, r: number, updates: BlockUpdates, streamed: StreamedWindows): void {
    // nothing streamed (a load): no per-block lists, a pair-block is one append
    if (!streamed.blocks && streamed.candles.length === 0 && streamed.trailing.length === 0) return pair.push(stats, r);
    const finished = streamed.candles.map((w) => pair.finishedCandles(w));
    pair.push(stats, r);
    const slot = stats.slot[r]!;
    const time = stats.time[r]!;
    if (streamed.blocks) updates.add(BLOCK, slot, time, blockTradesRecord(pair.series.stats(pair.series.length - 1)));
    streamed.candles.forEach((window, k) => {
      const width = windowNanos(window);
      for (const c of pair.candlesSince(window, finished[k]!)) updates.add(OHLCV, slot, time, candleRecord(pair.series, window, width, c));
    });
    for (const { method, record, window } of streamed.trailing) {
      const key = { base: pair.base, quote: pair.quote, window, width: windowNanos(window) };
      updates.add(method, slot, time, record(key, pair.newestPoint(window)));
    }
  }

  /**
   * Retention has moved its cut: drops the history before it, but the blocks the live trailing
   * windows (and the streamed ones, live as soon as their pair trades) still read.
   */
  pruned(cut: bigint): void {
    let widest = 0n;
    for (const pair of this.#allPairs()) if (pair.widestLive > widest) widest = pair.widestLive;
    for (const method of TRAILING_METHODS) for (const w of this.demand.windows(method)) if (windowNanos(w) > widest) widest = windowNanos(w);
    const blocksFrom = this.#horizon && this.#horizon.blocksFrom > cut - widest ? this.#horizon.blocksFrom : cut - widest;
    this.#horizon = { listedFrom: cut, blocksFrom };
    if (!this.#allBooks) {
      this.#allBooks = true;
      for (const pair of this.#allPairs()) pair.keepAllBooks();
    }
    for (const pair of this.#allPairs()) pair.prune(this.#horizon);
    this.trades.pruned(cut);
  }

  /** Refuses a stream of a trailing window whose blocks retention has dropped (SubscriptionHub's admit). */
  admit(method: string, params: { window?: string }): void {
    if ((TRAILING_METHODS as readonly string[]).includes(method) && params.window !== undefined) this.#checkReach(windowNanos(params.window));
  }

  /** chain::market::block: newest first (slot descending, then base and quote), from the pairs' series. */
  blocks(filter: PairFilter, limit: number, at?: bigint): BlockTradesRecord[] {
    this.#checkAt(at);
    const listedFrom = this.#horizon?.listedFrom;
    const recent = this.#walks(filter, at) ? this.#recent.newest(limit, this.#matches(filter), listedFrom) : undefined;
    if (recent) return recent.map(({ pair, k }) => blockTradesRecord(pair.series.stats(pair.series.length - 1 - k)));
    const lists = this.#matching(filter).map(({ series }) => {
      const n = at === undefined ? series.length : series.countBefore(at);
      const held = listedFrom === undefined ? n : n - series.countBefore(listedFrom, 0, n);
      return { length: Math.min(held, limit), at: (k: number) => ({ series, i: n - 1 - k }) };
    });
    type Entry = { series: MarketPair['series']; i: number };
    const slot = (e: Entry) => e.series.values.slot[e.i]!;
    const newer = (x: Entry, y: Entry) => (slot(x) !== slot(y) ? slot(y) - slot(x) : comparePairs(x.series, y.series));
    return mergeOrdered(lists, newer, limit).map(({ series, i }) => blockTradesRecord(series.stats(i)));
  }

  /** chain::market::ohlcv: newest first (open time descending, then base and quote). */
  candles(filter: PairFilter, window: string, limit: number, range: CandleRange): CandleRecord[] {
    const width = windowNanos(window);
    const { at } = range;
    this.#checkAt(at);
    // as of `at`, the candle holding at - 1 may be folded again from its blocks: they must be held
    const open = at === undefined ? undefined : windowStart(at - 1n, width);
    if (this.#horizon && open !== undefined && open < this.#horizon.blocksFrom) {
      throw prunedHistory('at', 'market blocks', { from: open }, this.#horizon.blocksFrom);
    }
    const make = (pair: MarketPair, count: number) => pair.candles(window, count, range, this.#horizon);
    const from = candlesHeldFrom(range.from, this.#horizon, width);
    const recent = this.#walks(filter, at) ? this.#recent.newestCandles(width, limit, this.#matches(filter), from, range.to) : undefined;
    const newer = (x: PairItem<bigint>, y: PairItem<bigint>) => (x.key !== y.key ? (x.key > y.key ? -1 : 1) : comparePairs(x.pair, y.pair));
    const made = recent
      ? madeInOrder(recent, make)
      : newestMade(this.#matching(filter).map((pair) => ({ pair, keys: pair.candleStarts(window, range, this.#horizon) })), newer, limit, make);
    return made.map(({ pair, made: candle }) => candleRecord(pair.series, window, width, candle));
  }

  /** chain::market::volume: newest first (time, slot descending, then base and quote). */
  volume(filter: PairFilter, window: string, limit: number, at?: bigint): VolumeRecord[] {
    return this.#points(filter, window, limit, at, volumeRecord);
  }

  /** chain::market::vwap. */
  vwap(filter: PairFilter, window: string, limit: number, at?: bigint): VwapRecord[] {
    return this.#points(filter, window, limit, at, vwapRecord);
  }

  /** chain::market::twap. */
  twap(filter: PairFilter, window: string, limit: number, at?: bigint): TwapRecord[] {
    return this.#points(filter, window, limit, at, twapRecord);
  }

  /** The newest `limit` trailing points over the matching pairs. */
  #points<R>(filter: PairFilter, window: string, limit: number, at: bigint | undefined, record: (k: PointKey, p: TrailingPoint) => R): R[] {
    const width = windowNanos(window);
    this.#checkAt(at);
    this.#checkReach(width, at);
    const make = (pair: MarketPair, count: number) => pair.points(window, count, at, this.#horizon);
    const key = (pair: MarketPair) => ({ base: pair.base, quote: pair.quote, window, width });
    const from = pointsHeldFrom(this.#horizon, width);
    const recent = this.#walks(filter, at) ? this.#recent.newest(limit, this.#matches(filter), from) : undefined;
    if (recent) return madeInOrder(recent, make).map(({ pair, made }) => record(key(pair), made));
    // a point's time and slot are its block's
    const lists = this.#matching(filter).map((pair) => {
      const n = at === undefined ? pair.series.length : pair.series.countBefore(at);
      return { pair, keys: { length: Math.min(pair.pointCount(width, at, this.#horizon), limit), at: (k: number) => n - 1 - k } };
    });
    const newer = (x: PairItem<number>, y: PairItem<number>) => {
      const tx = x.pair.series.time[x.key]!;
      const ty = y.pair.series.time[y.key]!;
      if (tx !== ty) return tx > ty ? -1 : 1;
      const sx = x.pair.series.values.slot[x.key]!;
      const sy = y.pair.series.values.slot[y.key]!;
      return sx !== sy ? (sx > sy ? -1 : 1) : comparePairs(x.pair, y.pair);
    };
    return newestMade(lists, newer, limit, make).map(({ pair, made }) => record(key(pair), made));
  }

  /**
   * Whether an answer walks the newest blocks (recent-blocks.ts): a live one over more than one pair.
   * One pair's series, and every series as of a time, are read directly; a walk that runs past the
   * kept blocks answers undefined, and the pairs' series are merged instead.
   */
  #walks(filter: PairFilter, at: bigint | undefined): boolean {
    return at === undefined && (filter.base === undefined || filter.quote === undefined);
  }

  #matches(filter: PairFilter): (pair: MarketPair) => boolean {
    return (pair) => matchesPair(filter, pair.base, pair.quote);
  }

  /** Refuses an `at` at or before the horizon: what was listed before it is gone. */
  #checkAt(at: bigint | undefined): void {
    if (this.#horizon && at !== undefined && at <= this.#horizon.listedFrom) {
      throw prunedHistory('at', 'market history', { before: at }, this.#horizon.listedFrom);
    }
  }

  /** Refuses a trailing window of `width` whose newest point (as of `at`, or live) needs dropped blocks. */
  #checkReach(width: bigint, at?: bigint): void {
    const end = at ?? (this.#newest === undefined ? undefined : this.#newest + 1n);
    if (!this.#horizon || end === undefined || end - width >= this.#horizon.blocksFrom) return;
    throw prunedHistory(at === undefined ? 'window' : 'at', 'market blocks', { from: end - width }, this.#horizon.blocksFrom);
  }

  #matching(filter: PairFilter): MarketPair[] {
    if (filter.base !== undefined && filter.quote !== undefined) {
      const pair = this.#pairs.get(filter.base)?.get(filter.quote);
      return pair ? [pair] : [];
    }
    return [...this.#allPairs()].filter(this.#matches(filter));
  }

  *#allPairs(): Iterable<MarketPair> {
    for (const byQuote of this.#pairs.values()) yield* byQuote.values();
  }

  #pair(base: string, quote: string): MarketPair {
    let byQuote = this.#pairs.get(base);
    if (!byQuote) this.#pairs.set(base, (byQuote = new Map()));
    let pair = byQuote.get(quote);
    if (!pair) {
      byQuote.set(quote, (pair = new MarketPair(base, quote)));
      if (this.#allBooks) pair.keepAllBooks();
    }
    return pair;
  }
}

/** An item of a pair's answer, known by its sort key before it is made. */
type PairItem<K> = { pair: MarketPair; key: K };

/**
 * The first `limit` items over the pairs' lists, merged by their keys (`order`), then made: each
 * pair's chosen items are its first ones, made with one `make(pair, count)`. A call across 2,000
 * pairs so makes only the items it answers with, not `limit` of every pair.
 */
function newestMade<K, V>(
  lists: readonly { pair: MarketPair; keys: OrderedList<K> }[], order: (x: PairItem<K>, y: PairItem<K>) => number, limit: number,
  make: (pair: MarketPair, count: number) => V[],
): { pair: MarketPair; made: V }[] {
  const keyed = lists.map(({ pair, keys }) => ({ length: Math.min(keys.length, limit), at: (k: number): PairItem<K> => ({ pair, key: keys.at(k)! }) }));
  return madeInOrder(mergeOrdered(keyed, order, limit), make);
}

/** The items `chosen` (each pair's newest first, pairs interleaved), made with one `make(pair, count)` a pair. */
function madeInOrder<V>(chosen: readonly { pair: MarketPair }[], make: (pair: MarketPair, count: number) => V[]): { pair: MarketPair; made: V }[] {
  const counts = new Map<MarketPair, number>();
  for (const { pair } of chosen) counts.set(pair, (counts.get(pair) ?? 0) + 1);
  const made = new Map([...counts].map(([pair, count]) => [pair, { items: make(pair, count), next: 0 }]));
  return chosen.map(({ pair }) => {
    const items = made.get(pair)!;
    return { pair, made: items.items[items.next++]! };
  });
}
