/**
 * One pair's history, one entry per block in which it traded, as growable typed columns: every
 * statistic of the block (the chain::market::block record), and what the candles and trailing
 * windows are built from, in memory (about 140 bytes per pair-block: some 14 MB for the 100,000
 * pair-blocks of ten minutes of the mainnet profile), from the pair's first block, or under
 * retention from the oldest block retention keeps (market-pair.ts).
 */
import { lowerBound } from '../windows/lower-bound.js';
import type { BlockStats } from './block-stats.js';

const FLOAT_COLUMNS = [
  'slot', 'open', 'high', 'low', 'close', 'vwap', 'vwapRaw', 'baseVolume', 'quoteVolume', 'buyVolume', 'sellVolume',
  'buyQuoteVolume', 'sellQuoteVolume', 'outlierVolumePct', 'quoteUsd',
] as const;
type FloatColumn = (typeof FLOAT_COLUMNS)[number];

/** A pair's blocks as growable columns, oldest first. */
export class PairSeries {
  length = 0;
  /** Block times, ns, not decreasing. */
  time = new BigInt64Array(16);
  count = new Uint32Array(16);
  buyCount = new Uint32Array(16);
  outlierCount = new Uint32Array(16);
  /** One Float64Array per block value (the slot too: slots are below 2^53). quoteUsd is NaN when unknown. */
  readonly values = Object.fromEntries(FLOAT_COLUMNS.map((c) => [c, new Float64Array(16)])) as Record<FloatColumn, Float64Array>;

  constructor(
    readonly base: string,
    readonly quote: string,
  ) {}

  /** Appends the pair's next block. */
  push(s: BlockStats): void {
    if (this.length === this.time.length) this.#grow();
    const i = this.length++;
    this.time[i] = s.time;
    this.count[i] = s.count;
    this.buyCount[i] = s.buyCount;
    this.outlierCount[i] = s.outlierCount;
    const v = this.values;
    v.slot[i] = Number(s.slot);
    for (const c of FLOAT_COLUMNS) if (c !== 'slot') v[c][i] = s[c];
  }

  /** The statistics of block i, as pushed. */
  stats(i: number): BlockStats {
    const v = this.values;
    const out: Record<string, unknown> = {
      base: this.base, quote: this.quote, slot: BigInt(v.slot[i]!), time: this.time[i]!,
      count: this.count[i]!, buyCount: this.buyCount[i]!, outlierCount: this.outlierCount[i]!,
    };
    for (const c of FLOAT_COLUMNS) if (c !== 'slot') out[c] = v[c][i];
    return out as unknown as BlockStats;
  }

  /** The number of blocks with time < t: the index of the first block at or after t. */
  countBefore(t: bigint, lo = 0, hi = this.length): number {
    return lowerBound(this.time, t, lo, hi);
  }

  /** Drops the `d` oldest blocks (retention): every index moves down by `d`. */
  dropFront(d: number): void {
    if (d <= 0) return;
    const n = this.length;
    this.time.copyWithin(0, d, n);
    this.count.copyWithin(0, d, n);
    this.buyCount.copyWithin(0, d, n);
    this.outlierCount.copyWithin(0, d, n);
    for (const c of FLOAT_COLUMNS) this.values[c].copyWithin(0, d, n);
    this.length = n - d;
  }

  #grow(): void {
    const size = this.time.length * 2;
    const grow = <T extends BigInt64Array | Float64Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a as never);
      return b;
    };
    this.time = grow(this.time, (n) => new BigInt64Array(n));
    this.count = grow(this.count, (n) => new Uint32Array(n));
    this.buyCount = grow(this.buyCount, (n) => new Uint32Array(n));
    this.outlierCount = grow(this.outlierCount, (n) => new Uint32Array(n));
    for (const c of FLOAT_COLUMNS) this.values[c] = grow(this.values[c], (n) => new Float64Array(n));
  }
}
