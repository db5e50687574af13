/**
 * One OHLCV candle (seed 2.7) folded from a pair's blocks (pair-series.ts), oldest first. A block
 * is already a candle of its trades (the kernels computed its open, high, low and close from the
 * exact trade prices); a candle of several blocks takes the first open, the last close, the
 * extremes, and the exact sums (exact-sum.ts) of the volumes, so folding the same blocks gives the
 * same candle bit for bit whether it is built live block by block or at once for an as-of answer.
 *
 * USD: a block's USD prices and volume are its plain values times its quote_usd_price; the candle's
 * high_usd/low_usd are the extremes of those, volume_usd their exact sum. As in the candle kernel,
 * all USD fields are unknown (NaN) when any block of the candle has no USD price.
 */
import { ExactSum } from './exact-sum.js';
import type { PairSeries } from './pair-series.js';

/** A folded candle. */
export interface CandleValues {
  start: bigint;
  open: number;
  high: number;
  low: number;
  close: number;
  /**
   * USD: open and close times the first and last block's USD price, the extremes and the volume;
   * NaN when any block's USD price is unknown (then every USD field is).
   */
  openUsd: number;
  closeUsd: number;
  highUsd: number;
  lowUsd: number;
  volumeUsd: number;
  baseVolume: number;
  quoteVolume: number;
  /** Trades folded in (data_points). */
  count: number;
}

/** A candle being folded block by block; `reset` starts the next one. */
export class CandleFold {
  start = 0n;
  #empty = true;
  #open = 0;
  #openUsd = 0;
  #closeUsd = 0;
  #high = -Infinity;
  #low = Infinity;
  #close = 0;
  #highUsd = -Infinity;
  #lowUsd = Infinity;
  #usdUnknown = false;
  #count = 0;
  readonly #base = new ExactSum();
  readonly #quote = new ExactSum();
  readonly #volumeUsd = new ExactSum();

  /** Whether no block has been folded in since the last reset. */
  get empty(): boolean {
    return this.#empty;
  }

  /** Starts an empty candle opening at `start`. */
  reset(start: bigint): void {
    this.start = start;
    this.#empty = true;
    this.#high = this.#highUsd = -Infinity;
    this.#low = this.#lowUsd = Infinity;
    this.#usdUnknown = false;
    this.#count = 0;
    this.#base.clear();
    this.#quote.clear();
    this.#volumeUsd.clear();
  }

  /** Folds in block i of the series (blocks in series order). */
  add(series: PairSeries, i: number): void {
    const v = series.values;
    const u = v.quoteUsd[i]!;
    if (this.#empty) {
      this.#empty = false;
      this.#open = v.open[i]!;
      this.#openUsd = v.open[i]! * u;
    }
    this.#close = v.close[i]!;
    this.#closeUsd = v.close[i]! * u;
    this.#high = Math.max(this.#high, v.high[i]!);
    this.#low = Math.min(this.#low, v.low[i]!);
    this.#count += series.count[i]!;
    this.#base.add(v.baseVolume[i]!);
    this.#quote.add(v.quoteVolume[i]!);
    if (Number.isNaN(u)) this.#usdUnknown = true;
    if (this.#usdUnknown) return;
    this.#highUsd = Math.max(this.#highUsd, v.high[i]! * u);
    this.#lowUsd = Math.min(this.#lowUsd, v.low[i]! * u);
    this.#volumeUsd.add(v.quoteVolume[i]! * u);
  }

  /** The candle so far (call when not empty). */
  values(): CandleValues {
    const unknown = this.#usdUnknown;
    return {
      start: this.start,
      open: this.#open,
      high: this.#high,
      low: this.#low,
      close: this.#close,
      openUsd: unknown ? Number.NaN : this.#openUsd,
      closeUsd: unknown ? Number.NaN : this.#closeUsd,
      highUsd: unknown ? Number.NaN : this.#highUsd,
      lowUsd: unknown ? Number.NaN : this.#lowUsd,
      volumeUsd: unknown ? Number.NaN : this.#volumeUsd.value(),
      baseVolume: this.#base.value(),
      quoteVolume: this.#quote.value(),
      count: this.#count,
    };
  }
}

/** The candle of blocks [from, to) of the series, opening at `start`. */
export function foldCandle(series: PairSeries, start: bigint, from: number, to: number): CandleValues {
  const fold = new CandleFold();
  fold.reset(start);
  for (let i = from; i < to; i++) fold.add(series, i);
  return fold.values();
}
