/**
 * The candles of one pair at one window size: the candle in progress (a live fold, so the newest
 * candle answers in O(1)) and every finished candle, kept in memory as rows of a Float64Array
 * (about 100 bytes a candle). A candle is finished when the pair's next block opens a later one;
 * finished candles never change, so every answer, live or as-of, reads them as they are, and only
 * the candle holding an as-of time is folded again from the pair's blocks.
 *
 * Under retention the candles that ended before the horizon are dropped (market-pair.ts).
 *
 * Why memory and not the store: candles of all 13 sizes are about 1.15 candles per pair-block
 * (1s candles dominate), cheaper to keep as packed rows than as store rows (ids, two mints per row)
 * and free to read back; answering 5000 candles reads 5000 rows.
 */
import { lowerBound } from '../windows/lower-bound.js';
import { windowStart } from '../windows/time-windows.js';
import { CandleFold, type CandleValues } from './candle-fold.js';
import type { PairSeries } from './pair-series.js';

const FIELDS = ['openUsd', 'closeUsd', 'open', 'high', 'low', 'close', 'highUsd', 'lowUsd', 'volumeUsd', 'baseVolume', 'quoteVolume', 'count'] as const;
const STRIDE = FIELDS.length;

/** One pair's candles of one width: the one in progress and the finished ones. */
export class CandleBook {
  /** The candle in progress: the one holding the pair's newest block. */
  readonly open = new CandleFold();
  #finished = 0;
  #starts = new BigInt64Array(16);
  #rows = new Float64Array(16 * STRIDE);

  constructor(readonly width: bigint) {}

  /** Finished candles, oldest first. */
  get finished(): number {
    return this.#finished;
  }

  /** Folds in the series' block i (the pair's newest). */
  add(series: PairSeries, i: number): void {
    const start = windowStart(series.time[i]!, this.width);
    if (this.open.empty || start !== this.open.start) {
      if (!this.open.empty) this.#push(this.open.values());
      this.open.reset(start);
    }
    this.open.add(series, i);
  }

  /** Start of finished candle k. */
  startOf(k: number): bigint {
    return this.#starts[k]!;
  }

  /** Finished candle k (0 = oldest). */
  candle(k: number): CandleValues {
    const r = this.#rows;
    const at = k * STRIDE;
    return {
      start: this.#starts[k]!, openUsd: r[at]!, closeUsd: r[at + 1]!, open: r[at + 2]!, high: r[at + 3]!, low: r[at + 4]!,
      close: r[at + 5]!, highUsd: r[at + 6]!, lowUsd: r[at + 7]!, volumeUsd: r[at + 8]!, baseVolume: r[at + 9]!,
      quoteVolume: r[at + 10]!, count: r[at + 11]!,
    };
  }

  /** Number of finished candles opening before `t`. */
  countBefore(t: bigint): number {
    return lowerBound(this.#starts, t, 0, this.#finished);
  }

  /** Drops the finished candles that ended at or before `cut` (retention). */
  dropEndedBy(cut: bigint): void {
    const d = this.countBefore(cut - this.width + 1n);
    if (d === 0) return;
    this.#starts.copyWithin(0, d, this.#finished);
    this.#rows.copyWithin(0, d * STRIDE, this.#finished * STRIDE);
    this.#finished -= d;
  }

  #push(c: CandleValues): void {
    if (this.#finished === this.#starts.length) {
      const starts = new BigInt64Array(this.#starts.length * 2);
      starts.set(this.#starts);
      this.#starts = starts;
      const rows = new Float64Array(this.#rows.length * 2);
      rows.set(this.#rows);
      this.#rows = rows;
    }
    const k = this.#finished++;
    this.#starts[k] = c.start;
    const at = k * STRIDE;
    FIELDS.forEach((f, j) => (this.#rows[at + j] = c[f]));
  }
}
