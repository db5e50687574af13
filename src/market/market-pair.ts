/**
 * Everything the market engine keeps for one pair: its block series, its candles at the
 * MARKET_WINDOWS sizes asked so far (a book is folded from the series when first asked, then kept
 * up block by block: the same folds in the same order as if it had been kept from the start), and
 * the live trailing windows that have been asked for. Answers are newest first, as of a time `at`
 * (the blocks with time < at) or live.
 *
 * As-of exactness: every value is a function of the pair's blocks before `at` alone (finished
 * candles are immutable; a candle in progress is folded again from its blocks; trailing windows
 * are exact sums over their blocks), so an as-of answer is exactly what the live engine answered
 * right after the newest of those blocks.
 *
 * Retention (a MarketHorizon, set by the market engine): blocks older than the horizon's
 * `blocksFrom` are dropped, but the last one before it (a trailing window's carry-in) and any a live
 * window still reads; finished candles that ended by `listedFrom` are dropped. Answers list only
 * entries from `listedFrom` on, and a trailing point only when its whole window is held.
 */
import { MARKET_WINDOWS, windowNanos } from '../schema/time.js';
import { windowStart } from '../windows/time-windows.js';
import type { ChunkBlockStats } from './block-stats.js';
import { CandleBook } from './candle-book.js';
import { foldCandle, type CandleValues } from './candle-fold.js';
import { PairSeries } from './pair-series.js';
import type { OrderedList } from './pairs.js';
import { trailingPoint, type TrailingPoint } from './trailing-point.js';
import { TrailingWindow } from './trailing-window.js';

/** Candle open-time bounds ([from, to)) and the as-of time, ns. */
export interface CandleRange {
  readonly from?: bigint;
  readonly to?: bigint;
  readonly at?: bigint;
}

/** What retention has dropped from the market's history (market/engine.ts). */
export interface MarketHorizon {
  /** Entries (pair blocks, trailing points) older than this are not listed; candles that ended by it are dropped. */
  readonly listedFrom: bigint;
  /** Blocks older than this are dropped, but the last one before it: windows and candle folds read from it on. */
  readonly blocksFrom: bigint;
}

/** The earliest time a trailing point of `width` is held from under retention: both its block and its window's blocks must be. */
export function pointsHeldFrom(horizon: MarketHorizon | undefined, width: bigint): bigint | undefined {
  if (horizon === undefined) return undefined;
  const whole = horizon.blocksFrom + width - 1n;
  return horizon.listedFrom > whole ? horizon.listedFrom : whole;
}

/** The earliest candle opening listed: `from`, and under retention none that ended by the cut. */
export function candlesHeldFrom(from: bigint | undefined, horizon: MarketHorizon | undefined, width: bigint): bigint | undefined {
  const dropped = horizon === undefined ? undefined : horizon.listedFrom - width + 1n;
  return from === undefined ? dropped : dropped === undefined || from > dropped ? from : dropped;
}

interface LiveWindow {
  readonly window: TrailingWindow;
  readonly width: bigint;
  /** The point of the window's newest block, once computed. */
  point?: TrailingPoint;
}

/** One pair's series, candle books and live trailing windows. */
export class MarketPair {
  readonly series: PairSeries;
  /** Candle books of the widths asked so far (all of them once retention prunes: `keepAllBooks`). */
  readonly #books = new Map<string, CandleBook>();
  /** Trailing windows kept live (slid at every block) once a query has asked for them. */
  readonly #live = new Map<string, LiveWindow>();

  constructor(
    readonly base: string,
    readonly quote: string,
  ) {
    this.series = new PairSeries(base, quote);
  }

  /** Appends the pair's next block: folds it into the candle books made so far and slides the live windows. */
  push(stats: ChunkBlockStats, r: number): void {
    this.series.push(stats, r);
    const i = this.series.length - 1;
    for (const book of this.#books.values()) book.add(this.series, i);
    for (const live of this.#live.values()) this.#slide(live);
  }

  /**
   * The candles of `window` as of `range.at`, newest first, within `from`/`to` and what retention
   * lists: the newest one (in progress when live), then the finished ones from `top` - 1 down to
   * `bottom`. Nothing is folded here.
   */
  #candleSpan(window: string, range: CandleRange, horizon?: MarketHorizon) {
    const book = this.#book(window);
    const n = this.#blocksBefore(range.at);
    if (n === 0) return undefined;
    const { from, to } = range;
    const newest = windowStart(this.series.time[n - 1]!, book.width);
    const listed = horizon === undefined || newest + book.width > horizon.listedFrom;
    const withNewest = listed && (from === undefined || newest >= from) && (to === undefined || newest < to);
    // every candle before the newest one is finished; those ended by the cut are dropped at the next prune
    const top = book.countBefore(to !== undefined && to < newest ? to : newest);
    const low = candlesHeldFrom(from, horizon, book.width);
    const bottom = low === undefined ? 0 : Math.min(top, book.countBefore(low));
    return { book, n, newest, withNewest, top, bottom };
  }

  /** The starts of the candles `candles` makes, newest first, without making them (the engine merges pairs by them). */
  candleStarts(window: string, range: CandleRange, horizon?: MarketHorizon): OrderedList<bigint> {
    const span = this.#candleSpan(window, range, horizon);
    if (!span) return [];
    const { book, newest, withNewest, top, bottom } = span;
    const first = withNewest ? 1 : 0;
    return { length: first + top - bottom, at: (k) => (k < first ? newest : book.startOf(top - 1 - (k - first))) };
  }

  /**
   * The newest `limit` candles of `window` opening in [from, to), as of `at` (see #candleSpan). Under
   * retention the caller has made sure that an as-of candle in progress has its blocks (market/engine.ts).
   */
  candles(window: string, limit: number, range: CandleRange, horizon?: MarketHorizon): CandleValues[] {
    const span = this.#candleSpan(window, range, horizon);
    if (!span) return [];
    const { book, n, newest, withNewest, top, bottom } = span;
    const s = this.series;
    const out: CandleValues[] = [];
    if (withNewest && limit > 0) out.push(n === s.length ? book.open.values() : foldCandle(s, newest, s.countBefore(newest, 0, n), n));
    for (let k = top - 1; k >= bottom && out.length < limit; k--) out.push(book.candle(k));
    return out;
  }

  /**
   * How many trailing points of `width` `points` makes as of `at` at most, without making any: the
   * engine merges the pairs by their blocks' times and makes only the points it answers with.
   */
  pointCount(width: bigint, at?: bigint, horizon?: MarketHorizon): number {
    const n = this.#blocksBefore(at);
    // a point is held from the block at or after both bounds on: the held blocks are a suffix
    const from = pointsHeldFrom(horizon, width);
    return from === undefined ? n : n - this.series.countBefore(from, 0, n);
  }

  /**
   * The newest `limit` trailing points of `window` as of `at`: one per block of the pair, under
   * retention only those from `listedFrom` on whose whole window is held.
   */
  points(window: string, limit: number, at?: bigint, horizon?: MarketHorizon): TrailingPoint[] {
    const n = this.#blocksBefore(at);
    const s = this.series;
    const width = windowNanos(window);
    const heldFrom = pointsHeldFrom(horizon, width);
    const held = (j: number) => heldFrom === undefined || s.time[j]! >= heldFrom;
    if (n === 0 || !held(n - 1)) return [];
    // a live window is made only where its blocks are held (a pair that traded within retention)
    const live = held(s.length - 1) ? this.#liveWindow(window) : undefined;
    if (live && n === s.length && limit === 1) return [this.#livePoint(live)];
    const slider = live ? live.window.clone() : new TrailingWindow(s);
    const out: TrailingPoint[] = [];
    for (let j = n - 1; j >= 0 && out.length < limit && held(j); j--) {
      if (live && j === s.length - 1) {
        out.push(this.#livePoint(live));
        continue;
      }
      slider.moveTo(s.countBefore(s.time[j]! + 1n - width, 0, j), j);
      out.push(trailingPoint(slider, width));
    }
    return out;
  }

  /** Drops what `horizon` no longer keeps, never a block a live window still reads. */
  prune(horizon: MarketHorizon): void {
    let d = this.series.countBefore(horizon.blocksFrom) - 1;
    for (const { window } of this.#live.values()) d = Math.min(d, window.lo - 1);
    if (d > 0) {
      this.series.dropFront(d);
      for (const { window } of this.#live.values()) {
        window.lo -= d;
        window.hi -= d;
      }
    }
    for (const book of this.#books.values()) book.dropEndedBy(horizon.listedFrom);
  }

  /** The widest trailing window kept live (0 when none). */
  get widestLive(): bigint {
    let widest = 0n;
    for (const { width } of this.#live.values()) if (width > widest) widest = width;
    return widest;
  }

  /** Finished candles of `window` so far. */
  finishedCandles(window: string): number {
    return this.#book(window).finished;
  }

  /**
   * For streams, right after a push: the candle of `window` in progress and the candles finished
   * since there were `finishedBefore`, newest first (the ones the push closed).
   */
  candlesSince(window: string, finishedBefore: number): CandleValues[] {
    const book = this.#book(window);
    const out = [book.open.values()];
    for (let k = book.finished - 1; k >= finishedBefore; k--) out.push(book.candle(k));
    return out;
  }

  /** For streams: the trailing point of `window` at the pair's newest block (the window stays live from now on). */
  newestPoint(window: string): TrailingPoint {
    return this.#livePoint(this.#liveWindow(window));
  }

  /**
   * Makes the candle book of every width (retention is about to drop blocks: a book made later
   * could not fold the candles before the cut).
   */
  keepAllBooks(): void {
    for (const window of MARKET_WINDOWS) this.#book(window);
  }

  /** The candle book of `window`, folded from the pair's blocks the first time it is asked. */
  #book(window: string): CandleBook {
    let book = this.#books.get(window);
    if (!book) {
      book = new CandleBook(windowNanos(window));
      for (let i = 0; i < this.series.length; i++) book.add(this.series, i);
      this.#books.set(window, book);
    }
    return book;
  }

  #blocksBefore(at: bigint | undefined): number {
    return at === undefined ? this.series.length : this.series.countBefore(at);
  }

  #liveWindow(window: string): LiveWindow {
    let live = this.#live.get(window);
    if (!live) {
      live = { window: new TrailingWindow(this.series), width: windowNanos(window) };
      this.#live.set(window, live);
      this.#slide(live);
    }
    return live;
  }

  /** Moves a live window to the pair's newest block: adds it, removes the blocks that left. */
  #slide(live: LiveWindow): void {
    const s = this.series;
    const last = s.length - 1;
    if (last < 0 || live.window.hi === last) return;
    live.window.moveTo(s.countBefore(s.time[last]! + 1n - live.width, live.window.hi < 0 ? 0 : live.window.lo, last), last);
    live.point = undefined;
  }

  #livePoint(live: LiveWindow): TrailingPoint {
    return (live.point ??= trailingPoint(live.window, live.width));
  }
}
