/**
 * Sums over a run of a pair's blocks [lo, hi] (pair-series.ts) that slide both ways: the
 * aggregates are data with add and remove (arquero's init/add/rem), so moving a trailing window
 * from one block to the next adds the blocks that entered and removes the ones that left, never
 * re-summing the window. Every float sum is exact (exact-sum.ts), so the values depend only on
 * [lo, hi]: a window slid live block by block, one slid backwards from the live state and one
 * summed afresh for an as-of answer agree bit for bit.
 *
 * TWAP stretches: block k holds its close price from its time until block k + 1, a stretch of
 * t[k+1] - t[k] ns; the window keeps the price x duration sums of the stretches that start and end
 * inside it (k in [lo, hi - 1]). The stretch carried in from before the window and the one from
 * the newest block to the window end depend on the window bounds, and are added per data point
 * (trailing-point.ts).
 */
import { ExactSum } from './exact-sum.js';
import type { PairSeries } from './pair-series.js';

/** Exact sums over blocks [lo, hi] of a pair's series; see the module comment. */
export class TrailingWindow {
  /** The window is blocks [lo, hi]; empty when hi < lo. */
  lo = 0;
  hi = -1;
  readonly baseVolume = new ExactSum();
  readonly quoteVolume = new ExactSum();
  readonly buyVolume = new ExactSum();
  readonly sellVolume = new ExactSum();
  /** USD sums over the blocks whose USD price is known (valid when usdUnknown is 0). */
  readonly volumeUsd = new ExactSum();
  readonly buyVolumeUsd = new ExactSum();
  readonly sellVolumeUsd = new ExactSum();
  count = 0;
  buyCount = 0;
  /** Blocks in the window without a USD price. */
  usdUnknown = 0;
  /** Sum of close price x held ns over the inner stretches. */
  readonly weighted = new ExactSum();
  /** The same in USD, over the stretches whose USD price is known. */
  readonly weightedUsd = new ExactSum();
  /** Inner stretches of positive length without a USD price. */
  stretchUsdUnknown = 0;

  constructor(readonly series: PairSeries) {}

  /** Moves the window to blocks [lo, hi] (lo <= hi), by the cheaper of sliding and summing afresh. */
  moveTo(lo: number, hi: number): void {
    const slide = Math.abs(lo - this.lo) + Math.abs(hi - this.hi);
    if (this.hi < this.lo || hi < this.lo || lo > this.hi || slide > hi - lo + 1) {
      this.#clear();
      this.lo = lo;
      this.hi = lo;
      this.#block(lo, 1);
    }
    while (this.hi < hi) {
      this.hi++;
      this.#block(this.hi, 1);
      this.#stretch(this.hi - 1, 1);
    }
    while (this.lo > lo) {
      this.lo--;
      this.#block(this.lo, 1);
      this.#stretch(this.lo, 1);
    }
    while (this.hi > hi) {
      this.#block(this.hi, -1);
      this.#stretch(this.hi - 1, -1);
      this.hi--;
    }
    while (this.lo < lo) {
      this.#block(this.lo, -1);
      this.#stretch(this.lo, -1);
      this.lo++;
    }
  }

  /** A copy that slides independently. */
  clone(): TrailingWindow {
    const copy = new TrailingWindow(this.series);
    copy.lo = this.lo;
    copy.hi = this.hi;
    for (const key of SUMS) copy[key].assign(this[key]);
    for (const key of COUNTERS) copy[key] = this[key];
    return copy;
  }

  #clear(): void {
    for (const key of SUMS) this[key].clear();
    for (const key of COUNTERS) this[key] = 0;
  }

  #block(i: number, sign: 1 | -1): void {
    const s = this.series;
    const v = s.values;
    this.baseVolume.add(sign * v.baseVolume[i]!);
    this.quoteVolume.add(sign * v.quoteVolume[i]!);
    this.buyVolume.add(sign * v.buyVolume[i]!);
    this.sellVolume.add(sign * v.sellVolume[i]!);
    this.count += sign * s.count[i]!;
    this.buyCount += sign * s.buyCount[i]!;
    const u = v.quoteUsd[i]!;
    if (Number.isNaN(u)) {
      this.usdUnknown += sign;
      return;
    }
    this.volumeUsd.add(sign * (v.quoteVolume[i]! * u));
    this.buyVolumeUsd.add(sign * (v.buyQuoteVolume[i]! * u));
    this.sellVolumeUsd.add(sign * (v.sellQuoteVolume[i]! * u));
  }

  /** The stretch from block k to block k + 1. */
  #stretch(k: number, sign: 1 | -1): void {
    const s = this.series;
    const held = Number(s.time[k + 1]! - s.time[k]!);
    if (held <= 0) return; // blocks sharing a time hold for 0 ns
    const close = s.values.close[k]!;
    const u = s.values.quoteUsd[k]!;
    this.weighted.addProduct(close, held, sign);
    if (Number.isNaN(u)) this.stretchUsdUnknown += sign;
    else this.weightedUsd.addProduct(close * u, held, sign);
  }
}

const SUMS = ['baseVolume', 'quoteVolume', 'buyVolume', 'sellVolume', 'volumeUsd', 'buyVolumeUsd', 'sellVolumeUsd', 'weighted', 'weightedUsd'] as const;
const COUNTERS = ['count', 'buyCount', 'usdUnknown', 'stretchUsdUnknown'] as const;
