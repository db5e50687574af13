/**
 * The statistics of one tumbling fee window kept up to date sample by sample, for the streams of
 * chain::priorityfee::fee: a push after each block adds the block's samples instead of running the
 * kernels over the whole window again. They equal the kernels' `sampleStats` bit for bit (the
 * kernels stay the definition; test/priorityfee/fee-window-stats.test.ts holds them together):
 *
 * - percentiles of price, fee, limit and position: exact order statistics (OrderedMultiset, the
 *   positions keyed by their IEEE bits, which order like the values for non-negative floats);
 * - means of the u64 families: exact sums, rounded half up as the kernels do;
 * - position mean: the same f64 sum in sample order as the kernels' (a tumbling window only appends);
 * - position_at_fee_pN: the kernels sum the positions of the samples whose fee is >= fee_pN in
 *   sample order, and fee_pN moves with every block, so this one is a scan of the window: a tight
 *   branch-free loop over the window's fees as f64 (exact below 2^53; BigInt compares otherwise),
 *   about 4 ns a sample. It is the one part linear in the window (an order-free exact sum would be
 *   incremental, but would differ from the in-order sum in the last bit).
 */
import type { FeeSamples, SampleStats } from '../kernels/fees.js';
import { POSITION_AT_FEE, STAT_SUFFIXES, suffixMillis, type StatSuffix } from '../schema/records.js';
import { OrderedMultiset } from '../windows/ordered-multiset.js';

const PERCENTILES = STAT_SUFFIXES.flatMap((s) => {
  const millis = suffixMillis(s as StatSuffix);
  return millis === undefined ? [] : [[s, millis] as const];
});
const U64_FAMILIES = ['price', 'fee', 'limit'] as const;
const SAFE = 2n ** 53n;

/** The fee percentiles position_at_fee is taken at: nine, which #atFee's unrolled loop relies on. */
type AtFeeThresholds = [number, number, number, number, number, number, number, number, number];
if (POSITION_AT_FEE.length !== 9) throw new Error('FeeWindowStats#atFee sums exactly nine position_at_fee thresholds');

const bits = new Float64Array(1);
const bitsKey = new BigUint64Array(bits.buffer);
const floatOfKey = (key: bigint): number => ((bitsKey[0] = key), bits[0]!);

/** Every statistic null: a window with transactions but no fee-paying one. */
function emptyStats(): Record<string, unknown> {
  const stats: Record<string, unknown> = {};
  for (const family of [...U64_FAMILIES, 'position']) for (const suffix of STAT_SUFFIXES) stats[`${family}_${suffix}`] = null;
  for (const family of [...U64_FAMILIES, 'position']) stats[`${family}_spread`] = null;
  stats.std_dev = null;
  for (const p of POSITION_AT_FEE) stats[`position_at_fee_p${p}`] = null;
  return stats;
}

/** One window's samples as incremental statistics; see the module comment. */
export class FeeWindowStats {
  readonly #sets = { price: new OrderedMultiset(), fee: new OrderedMultiset(), limit: new OrderedMultiset() };
  readonly #sums = { price: 0n, fee: 0n, limit: 0n };
  readonly #positions = new OrderedMultiset();
  #positionSum = 0;
  /** The window's fees (as f64) and positions in sample order, for position_at_fee. */
  #fee = new Float64Array(1024);
  /** The fees exactly, kept only once a fee reaches 2^53 (below it the f64 copy is exact). */
  #feeExact: BigUint64Array | undefined;
  #position = new Float64Array(1024);
  #n = 0;

  /** Samples held. */
  get size(): number {
    return this.#n;
  }

  /** Appends samples (in sample order). */
  add(samples: FeeSamples): void {
    const k = samples.price.length;
    if (k === 0) return;
    this.#sets.price.add(samples.price);
    this.#sets.fee.add(samples.fee);
    this.#sets.limit.add(samples.limit);
    this.#positions.add(new BigUint64Array(Float64Array.from(samples.position).buffer));
    for (const family of U64_FAMILIES) {
      let sum = 0n;
      for (const x of samples[family]) sum += x;
      this.#sums[family] += sum;
    }
    this.#reserve(this.#n + k);
    for (let i = 0; i < k; i++) {
      const fee = samples.fee[i]!;
      if (fee >= SAFE && !this.#feeExact) this.#feeExact = BigUint64Array.from(this.#fee, BigInt);
      this.#fee[this.#n + i] = Number(fee);
      if (this.#feeExact) this.#feeExact[this.#n + i] = fee;
      this.#position[this.#n + i] = samples.position[i]!;
      this.#positionSum += samples.position[i]!;
    }
    this.#n += k;
  }

  /** The statistics the kernels' `sampleStats` gives for the same samples (the fields a fee window has). */
  stats(): SampleStats {
    const n = this.#n;
    const stats = emptyStats();
    if (n === 0) return stats as SampleStats;
    const big = BigInt(n);
    for (const family of U64_FAMILIES) {
      const set = this.#sets[family];
      stats[`${family}_mean`] = (2n * this.#sums[family] + big) / (2n * big);
      for (const [suffix, millis] of PERCENTILES) stats[`${family}_${suffix}`] = set.percentile(millis);
      stats[`${family}_spread`] = set.max() - set.min();
    }
    stats.position_mean = this.#positionSum / n;
    for (const [suffix, millis] of PERCENTILES) stats[`position_${suffix}`] = floatOfKey(this.#positions.percentile(millis));
    stats.position_spread = floatOfKey(this.#positions.max()) - floatOfKey(this.#positions.min());
    const thresholds = POSITION_AT_FEE.map((p) => this.#sets.fee.percentile(p * 1000));
    const sums = this.#atFee(thresholds);
    POSITION_AT_FEE.forEach((p, j) => (stats[`position_at_fee_p${p}`] = sums[j]! / this.#sets.fee.countAtLeast(thresholds[j]!)));
    return stats as SampleStats;
  }

  /**
   * For each threshold (ascending, as fee percentiles are), the sum in sample order of the positions
   * of the samples whose fee is at least it: each sum takes the same additions, in the same order,
   * as the kernels' loop over the samples.
   */
  #atFee(thresholds: readonly bigint[]): Float64Array {
    if (this.#feeExact) return this.#atFeeExact(thresholds);
    // Branch-free over the nine thresholds: a sample below one adds p x 0 = +0 to its sum, which
    // leaves the sum's bits as they are (sums start at +0 and positions are >= 0), so each sum still
    // takes the kernels' additions in the kernels' order. ~4 ns a sample on the mainnet profile, where
    // branches (a loop, or `?:`, which V8 compiles to a branch) took 10-15: fees against their own
    // percentiles are the least predictable branches there are.
    const [t0, t1, t2, t3, t4, t5, t6, t7, t8] = Array.from(thresholds, Number) as AtFeeThresholds;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s8 = 0;
    const fee = this.#fee;
    const position = this.#position;
    for (let i = 0, n = this.#n; i < n; i++) {
      const f = fee[i]!;
      const p = position[i]!;
      s0 += p * +(f >= t0);
      s1 += p * +(f >= t1);
      s2 += p * +(f >= t2);
      s3 += p * +(f >= t3);
      s4 += p * +(f >= t4);
      s5 += p * +(f >= t5);
      s6 += p * +(f >= t6);
      s7 += p * +(f >= t7);
      s8 += p * +(f >= t8);
    }
    return Float64Array.of(s0, s1, s2, s3, s4, s5, s6, s7, s8);
  }

  /** #atFee once a fee has reached 2^53: the same sums over the exact fees. */
  #atFeeExact(thresholds: readonly bigint[]): Float64Array {
    const m = thresholds.length;
    const sums = new Float64Array(m);
    const fee = this.#feeExact!;
    const position = this.#position;
    for (let i = 0; i < this.#n; i++) {
      const f = fee[i]!;
      for (let j = 0; j < m && f >= thresholds[j]!; j++) sums[j] += position[i]!;
    }
    return sums;
  }

  #reserve(capacity: number): void {
    if (capacity <= this.#fee.length) return;
    const size = Math.max(capacity, this.#fee.length * 2);
    const fee = new Float64Array(size);
    fee.set(this.#fee.subarray(0, this.#n));
    this.#fee = fee;
    if (this.#feeExact) {
      const exact = new BigUint64Array(size);
      exact.set(this.#feeExact.subarray(0, this.#n));
      this.#feeExact = exact;
    }
    const position = new Float64Array(size);
    position.set(this.#position.subarray(0, this.#n));
    this.#position = position;
  }
}
