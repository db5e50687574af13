/**
 * One pair's history, one entry per block in which it traded, as growable typed columns: every
 * statistic of the block (the chain::market::block record), and what the candles and trailing
 * windows are built from, in memory (about 140 bytes per pair-block: some 14 MB for the 100,000
 * pair-blocks of ten minutes of the mainnet profile), from the pair's first block, or under
 * retention from the oldest block retention keeps (market-pair.ts).
 */
import { lowerBound } from '../windows/lower-bound.js';
import { FLOAT_STATS, type BlockStats, type ChunkBlockStats } from './block-stats.js';

/** The float columns: the slot too (slots are below 2^53), then the block's values. */
const FLOAT_COLUMNS = ['slot', ...FLOAT_STATS] as const;
type FloatColumn = (typeof FLOAT_COLUMNS)[number];

/** Bytes a block takes in the columns: its time and float values (8 each), its three counts (4 each). */
const BLOCK_BYTES = 8 + 8 * FLOAT_COLUMNS.length + 4 * 3;
const FIRST_CAPACITY = 16;

/** A pair's blocks as growable columns, oldest first. */
export class PairSeries {
  length = 0;
  /** Block times, ns, not decreasing. */
  time!: BigInt64Array;
  count!: Uint32Array;
  buyCount!: Uint32Array;
  outlierCount!: Uint32Array;
  /** One Float64Array per block value (the slot too: slots are below 2^53). quoteUsd is NaN when unknown. */
  readonly values = {} as Record<FloatColumn, Float64Array>;

  constructor(
    readonly base: string,
    readonly quote: string,
  ) {
    this.#allocate(FIRST_CAPACITY);
  }

  /** Appends the pair's next block: row r of a chunk's statistics. */
  push(s: ChunkBlockStats, r: number): void {
    if (this.length === this.time.length) this.#allocate(2 * this.time.length);
    const i = this.length++;
    this.time[i] = s.time[r]!;
    this.count[i] = s.count[r]!;
    this.buyCount[i] = s.buyCount[r]!;
    this.outlierCount[i] = s.outlierCount[r]!;
    // a named store each (a loop over the column names costs a megamorphic keyed load a value: ~0.4 s of the hour's load)
    const v = this.values;
    v.slot[i] = Number(s.slot[r]!);
    v.open[i] = s.open[r]!;
    v.high[i] = s.high[r]!;
    v.low[i] = s.low[r]!;
    v.close[i] = s.close[r]!;
    v.vwap[i] = s.vwap[r]!;
    v.vwapRaw[i] = s.vwapRaw[r]!;
    v.baseVolume[i] = s.baseVolume[r]!;
    v.quoteVolume[i] = s.quoteVolume[r]!;
    v.buyVolume[i] = s.buyVolume[r]!;
    v.sellVolume[i] = s.sellVolume[r]!;
    v.buyQuoteVolume[i] = s.buyQuoteVolume[r]!;
    v.sellQuoteVolume[i] = s.sellQuoteVolume[r]!;
    v.outlierVolumePct[i] = s.outlierVolumePct[r]!;
    v.quoteUsd[i] = s.quoteUsd[r]!;
  }

  /** The statistics of block i, as pushed. */
  stats(i: number): BlockStats {
    const v = this.values;
    const out: Record<string, unknown> = {
      base: this.base, quote: this.quote, slot: BigInt(v.slot[i]!), time: this.time[i]!,
      count: this.count[i]!, buyCount: this.buyCount[i]!, outlierCount: this.outlierCount[i]!,
    };
    for (const c of FLOAT_STATS) out[c] = v[c][i];
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

  /**
   * Room for `capacity` blocks, the blocks held copied over: every column a view of one buffer (one
   * allocation a growth, not nineteen: typed arrays are slow to allocate, ~0.5 s of the hour's load).
   */
  #allocate(capacity: number): void {
    const buffer = new ArrayBuffer(capacity * BLOCK_BYTES);
    let at = 0;
    const view = <T extends BigInt64Array | Float64Array | Uint32Array>(
      make: new (buffer: ArrayBuffer, offset: number, length: number) => T, old: T | undefined,
    ): T => {
      const column = new make(buffer, at, capacity);
      at += column.byteLength;
      if (old) column.set(old.subarray(0, this.length) as never);
      return column;
    };
    // the 8-byte columns first, so that every view is aligned
    this.time = view(BigInt64Array, this.time);
    for (const c of FLOAT_COLUMNS) this.values[c] = view(Float64Array, this.values[c]);
    this.count = view(Uint32Array, this.count);
    this.buyCount = view(Uint32Array, this.buyCount);
    this.outlierCount = view(Uint32Array, this.outlierCount);
  }
}
