/**
 * One pair's history, one entry per block in which it traded, as growable typed columns: what the
 * candles and trailing windows are built from, in memory, for every block ever ingested (about
 * 112 bytes per pair-block: some 57 MB for a day of the synthetic three-pair market).
 */
import type { BlockStats } from './block-stats.js';

const FLOAT_COLUMNS = [
  'slot', 'open', 'high', 'low', 'close', 'baseVolume', 'quoteVolume', 'buyVolume', 'sellVolume',
  'buyQuoteVolume', 'sellQuoteVolume', 'quoteUsd',
] as const;
type FloatColumn = (typeof FLOAT_COLUMNS)[number];

/** A pair's blocks as growable columns, oldest first. */
export class PairSeries {
  length = 0;
  /** Block times, ns, not decreasing. */
  time = new BigInt64Array(16);
  count = new Uint32Array(16);
  buyCount = new Uint32Array(16);
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
    const v = this.values;
    v.slot[i] = Number(s.slot);
    v.open[i] = s.open;
    v.high[i] = s.high;
    v.low[i] = s.low;
    v.close[i] = s.close;
    v.baseVolume[i] = s.baseVolume;
    v.quoteVolume[i] = s.quoteVolume;
    v.buyVolume[i] = s.buyVolume;
    v.sellVolume[i] = s.sellVolume;
    v.buyQuoteVolume[i] = s.buyQuoteVolume;
    v.sellQuoteVolume[i] = s.sellQuoteVolume;
    v.quoteUsd[i] = s.quoteUsd;
  }

  /** The number of blocks with time < t: the index of the first block at or after t. */
  countBefore(t: bigint, lo = 0, hi = this.length): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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
    for (const c of FLOAT_COLUMNS) this.values[c] = grow(this.values[c], (n) => new Float64Array(n));
  }
}
