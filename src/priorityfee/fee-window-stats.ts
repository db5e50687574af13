/**
 * The statistics of one tumbling fee window kept up to date sample by sample, for the streams of
 * chain::priorityfee::fee: a push after each block adds the block's samples instead of running the
 * kernels over the whole window again. They equal the kernels' `sampleStats` bit for bit (the
 * kernels stay the definition; test/priorityfee/fee-window-stats.test.ts holds them together):
 *
 * - percentiles of price, fee, limit and position: exact order statistics (NestedWindows with one
 *   window that only grows until it is cleared; the positions keyed by their IEEE bits, which order
 *   like the values for non-negative floats);
 * - means of the u64 families: exact sums, rounded half up as the kernels do;
 * - position mean and position_at_fee_pN: exact sums of positions (windows/position-sum.ts), which
 *   do not depend on the order of the samples. The fee set's entries carry their positions, so the
 *   mean is its whole payload sum and position_at_fee_pN its payload sum at or above fee_pN.
 */
import type { FeeSamples, SampleStats } from '../kernels/fees.js';
import { runToEnd, type Steps } from '../platform/event-loop.js';
import { POSITION_AT_FEE, STAT_SUFFIXES, suffixMillis, type StatSuffix } from '../schema/records.js';
import { sumU64 } from '../schema/u64-words.js';
import { NestedWindows } from '../windows/nested-windows.js';

const PERCENTILES = STAT_SUFFIXES.flatMap((s) => {
  const millis = suffixMillis(s as StatSuffix);
  return millis === undefined ? [] : [[s, millis] as const];
});
const U64_FAMILIES = ['price', 'fee', 'limit'] as const;
const FAMILIES = [...U64_FAMILIES, 'position'] as const;
type Family = (typeof FAMILIES)[number];

/** A family's field names, made once (a streamed window's statistics are made after every block). */
const fieldsOf = (family: Family) => ({
  mean: `${family}_mean`,
  spread: `${family}_spread`,
  percentiles: PERCENTILES.map(([suffix, millis]) => [`${family}_${suffix}` as string, millis] as const),
});
const FIELDS: Record<Family, ReturnType<typeof fieldsOf>> = {
  price: fieldsOf('price'), fee: fieldsOf('fee'), limit: fieldsOf('limit'), position: fieldsOf('position'),
};
const POSITION_AT_FEE_FIELDS = POSITION_AT_FEE.map((p) => [`position_at_fee_p${p}`, p * 1000] as const);

const bits = new Float64Array(1);
const bitsKey = new BigUint64Array(bits.buffer);
const floatOfKey = (key: bigint): number => ((bitsKey[0] = key), bits[0]!);

/** Every statistic null: a window with transactions but no fee-paying one (copied, one shape for all). */
const EMPTY_STATS: Readonly<Record<string, unknown>> = Object.fromEntries([
  ...FAMILIES.flatMap((family) => [FIELDS[family].mean, ...FIELDS[family].percentiles.map(([name]) => name), FIELDS[family].spread]),
  'std_dev',
  ...POSITION_AT_FEE_FIELDS.map(([name]) => name),
].map((name) => [name, null]));

/** One window's samples as incremental statistics; see the module comment. */
export class FeeWindowStats {
  /** The fee set's entries carry their sample's position: the mean position and position_at_fee are its payload sums. */
  readonly #sets = {
    price: new NestedWindows(1, { growing: true }),
    fee: new NestedWindows(1, { payloads: true, growing: true }),
    limit: new NestedWindows(1, { growing: true }),
  };
  readonly #sums = { price: 0n, fee: 0n, limit: 0n };
  readonly #positions = new NestedWindows(1, { growing: true });

  /** Samples held. */
  get size(): number {
    return this.#positions.size(0);
  }

  /** Empties the window for the next one: its sets keep their memory (WebAssembly memory, freed only with the set). */
  clear(): void {
    for (const family of U64_FAMILIES) {
      this.#sets[family].clear();
      this.#sums[family] = 0n;
    }
    this.#positions.clear();
  }

  /** Appends samples. */
  add(samples: FeeSamples): void {
    const k = samples.price.length;
    if (k === 0) return;
    const position = Float64Array.from(samples.position);
    this.#sets.price.add(samples.price);
    this.#sets.fee.add(samples.fee, position);
    this.#sets.limit.add(samples.limit);
    this.#positions.add(new BigUint64Array(position.buffer));
    for (const family of U64_FAMILIES) this.#sums[family] += sumU64(samples[family]);
  }

  /** The statistics the kernels' `sampleStats` gives for the same samples (the fields a fee window has). */
  stats(): SampleStats {
    return runToEnd(this.statsSteps());
  }

  /**
   * The same, as steps that may pause between families: some 60 order statistics of an hour's
   * samples take about a millisecond, which a request arriving meanwhile would otherwise wait for.
   * The window must not change until they are done.
   */
  *statsSteps(): Steps<SampleStats> {
    const n = this.size;
    const stats = { ...EMPTY_STATS };
    if (n === 0) return stats as SampleStats;
    const big = BigInt(n);
    for (const family of U64_FAMILIES) {
      const set = this.#sets[family];
      const fields = FIELDS[family];
      stats[fields.mean] = (2n * this.#sums[family] + big) / (2n * big);
      for (const [name, millis] of fields.percentiles) stats[name] = set.percentile(0, millis);
      stats[fields.spread] = set.max(0) - set.min(0);
      yield;
    }
    const fees = this.#sets.fee;
    const positions = FIELDS.position;
    stats[positions.mean] = fees.payloadSumAtLeast(0, 0n) / n;
    for (const [name, millis] of positions.percentiles) stats[name] = floatOfKey(this.#positions.percentile(0, millis));
    stats[positions.spread] = floatOfKey(this.#positions.max(0)) - floatOfKey(this.#positions.min(0));
    yield;
    for (const [name, millis] of POSITION_AT_FEE_FIELDS) {
      const tail = fees.percentileTail(0, millis);
      stats[name] = tail.payloadSum / tail.count;
    }
    return stats as SampleStats;
  }
}
