import { Status } from '../status';
import { Area, area, atFeeCount, fitsSamples, MAX_PERCENTILES, MILLIS, statCount } from './layout';
import { clearExact, countBucket, countExact, EXACT_LIMIT, percentiles, percentilesExact, percentilesUncounted } from './order';
import { divide, meanRoundedHalfUp, quotient, remainder, toF64 } from './u128';

/**
 * The statistics of one sample set (DESIGN.md 6) over the sample columns: price, fee, limit (u64)
 * and position (f64). Percentiles are exact nearest-rank (order.ts); u64 sums are u128; positions
 * are summed exactly too, as u128 fixed point (src/windows/position-sum.ts has the definition), so
 * a mean position does not depend on the order of the samples.
 */

const SIGN: u64 = 0x8000000000000000;
const FEE_PERCENTILES = memory.data(<i32>(MAX_PERCENTILES << 4), 16); // k + m u64
// position_at_fee's samples by how many thresholds their fee reaches (0..m): u128 position sums, counts
const BUCKET_LOW = memory.data(<i32>(MAX_PERCENTILES + 1) << 3, 16);
const BUCKET_HIGH = memory.data(<i32>(MAX_PERCENTILES + 1) << 3, 16);
const BUCKET_COUNT = memory.data(<i32>(MAX_PERCENTILES + 1) << 3, 16);
const AT_FEE_THRESHOLD = memory.data(<i32>(MAX_PERCENTILES + 1) << 3, 16); // its fee, sign flipped
// Positions as u128 fixed point with 96 fractional bits: powers of two, exact.
const SCALE_UP = reinterpret<f64>(<u64>(1023 + 96) << 52);
const SCALE_DOWN = reinterpret<f64>(<u64>(1023 - 96) << 52);
const WORD = reinterpret<f64>(<u64>(1023 + 64) << 52);
const HIGH_WORD = reinterpret<f64>(<u64>(1023 - 64) << 52);

let low: u64 = 0;
let high: u64 = 0;
let least: u64 = 0; // of the last pass's values (or keys)
let most: u64 = 0;
let positionSpread: f64 = 0;
let fixedHigh: u64 = 0; // of the last `toFixed`

/**
 * Writes the sample-statistics record (layout.ts) of the first `n` values of the sample columns
 * to `out`. Reorders the price and limit columns; uses the key, work and scratch columns.
 */
export function sampleStats(n: u32, out: usize): Status {
  if (n == 0) return Status.EMPTY;
  if (!fitsSamples(n)) return Status.CAPACITY;
  statsInto(n, out, 0);
  return Status.OK;
}

/**
 * `sampleStats` for 1 <= n <= the sample capacity. The key column orders the positions: with
 * `last` = 0 it is filled with their order bits; with `last` > 0 (a block: its transaction count
 * - 1) it holds each sample's transaction index and the positions are written as index / last,
 * a monotone map, so the positions' percentiles are those of the small integer indexes.
 */
export function statsInto(n: u32, out: usize, last: f64): void {
  const k = statCount;
  const m = atFeeCount;
  const family = <usize>(1 + k) << 3;
  const tail = out + 4 * family;
  const scratch = area(Area.SCRATCH);

  const price = area(Area.PRICE);
  sumU64(price, n, 0);
  store<u64>(out, meanRoundedHalfUp(high, low, n));
  store<u64>(tail, most - least);
  store<f64>(tail, standardDeviation(price, n), 32);
  percentiles(price, scratch, n, least, most, MILLIS, k, out + 8);

  const limit = area(Area.LIMIT);
  sumU64(limit, n, 0);
  store<u64>(out + 2 * family, meanRoundedHalfUp(high, low, n));
  store<u64>(tail, most - least, 16);
  percentiles(limit, scratch, n, least, most, MILLIS, k, out + 2 * family + 8);

  const position = area(Area.POSITION);
  const key = area(Area.KEY);
  const at = out + 3 * family;
  store<f64>(at, last > 0 ? indexPositions(key, position, n, last) : orderPositions(position, key, n));
  store<f64>(tail, positionSpread, 24);
  if (last > 0 && most < <u64>EXACT_LIMIT) percentilesExact(n, least, most, MILLIS, k, at + 8);
  else percentilesUncounted(key, scratch, n, MILLIS, k, at + 8);
  for (let p = at + 8; p < at + family; p += 8) {
    const x = load<u64>(p);
    store<f64>(p, last > 0 ? <f64>x / last : reinterpret<f64>(fromOrderBits(x)));
  }

  // The fee column stays in sample order for position_at_fee; its copy is ordered.
  const fee = area(Area.FEE);
  const work = area(Area.WORK);
  sumU64(fee, n, work);
  store<u64>(out + family, meanRoundedHalfUp(high, low, n));
  store<u64>(tail, most - least, 8);
  percentiles(work, scratch, n, least, most, MILLIS, k + m, FEE_PERCENTILES);
  memory.copy(out + family + 8, FEE_PERCENTILES, <usize>k << 3);
  positionAtFee(fee, position, n, FEE_PERCENTILES + (<usize>k << 3), m, tail + 40);
}

/**
 * Sets `high:low` to the exact sum and `least`/`most` to the extremes, and counts each value's
 * bucket (order.ts); copies the values to `copy` unless 0.
 */
function sumU64(values: usize, n: u32, copy: usize): void {
  let lo: u64 = 0;
  let hi: u64 = 0;
  let mn: u64 = u64.MAX_VALUE;
  let mx: u64 = 0;
  const end = values + (<usize>n << 3);
  if (copy != 0) memory.copy(copy, values, <usize>n << 3);
  for (let p = values; p < end; p += 8) {
    const x = load<u64>(p);
    lo += x;
    hi += select<u64>(1, 0, lo < x);
    mn = select<u64>(x, mn, x < mn);
    mx = select<u64>(x, mx, x > mx);
    countBucket(x);
  }
  low = lo;
  high = hi;
  least = mn;
  most = mx;
}

/**
 * Population standard deviation of the u64 values whose exact sum is `high:low`. Each deviation is
 * taken exactly in integers from the integer part q of the mean, then (x - q) - r / n in f64, so
 * values above 2^53 lose nothing to the subtraction; the squares are summed in sample order with
 * Neumaier's compensation, so the sum keeps full precision over millions of samples.
 */
function standardDeviation(values: usize, n: u32): f64 {
  divide(high, low, n);
  const q = quotient;
  const fraction = <f64>remainder / <f64>n;
  const end = values + (<usize>n << 3);
  let squares: f64 = 0;
  let lost: f64 = 0; // Neumaier compensation: what the running sum rounded away
  for (let p = values; p < end; p += 8) {
    const x = load<u64>(p);
    const d = (x >= q ? <f64>(x - q) : -<f64>(q - x)) - fraction;
    const y = d * d;
    const t = squares + y;
    lost += squares >= y ? squares - t + y : y - t + squares;
    squares = t;
  }
  return Math.sqrt((squares + lost) / <f64>n);
}

/**
 * Writes each position's order bits to `keys`; returns the mean position,
 * sets `least`/`most` to the extreme keys and `positionSpread`.
 */
function orderPositions(positions: usize, keys: usize, n: u32): f64 {
  let lo: u64 = 0;
  let hi: u64 = 0;
  let mn: u64 = u64.MAX_VALUE;
  let mx: u64 = 0;
  const end = <usize>n << 3;
  for (let p: usize = 0; p < end; p += 8) {
    const x = load<f64>(positions + p);
    const xlo = toFixed(x);
    lo += xlo;
    hi += fixedHigh + select<u64>(1, 0, lo < xlo);
    const bits = toOrderBits(x);
    store<u64>(keys + p, bits);
    mn = select<u64>(bits, mn, bits < mn);
    mx = select<u64>(bits, mx, bits > mx);
  }
  least = mn;
  most = mx;
  positionSpread = reinterpret<f64>(fromOrderBits(mx)) - reinterpret<f64>(fromOrderBits(mn));
  return meanOfFixed(hi, lo, n);
}

/**
 * Writes position = index / last of each index in `keys` to `positions` (counting the indexes
 * exactly, for `percentilesExact`); returns the mean position, sets `least`/`most` to the extreme
 * indexes and `positionSpread`.
 */
function indexPositions(keys: usize, positions: usize, n: u32, last: f64): f64 {
  let lo: u64 = 0;
  let hi: u64 = 0;
  let mn: u64 = u64.MAX_VALUE;
  let mx: u64 = 0;
  const end = <usize>n << 3;
  for (let p: usize = 0; p < end; p += 8) {
    const index = load<u64>(keys + p);
    const x = <f64>index / last;
    store<f64>(positions + p, x);
    const xlo = toFixed(x);
    lo += xlo;
    hi += fixedHigh + select<u64>(1, 0, lo < xlo);
    mn = select<u64>(index, mn, index < mn);
    mx = select<u64>(index, mx, index > mx);
    countExact(min<u64>(index, EXACT_LIMIT - 1));
  }
  // Indexes past the exact range (a block of more than EXACT_LIMIT transactions, or indexes that
  // are not 0..n-1) leave the counts unused: clear them; the keys are then sorted instead.
  if (mx >= <u64>EXACT_LIMIT) clearExact(min<u64>(mn, EXACT_LIMIT - 1));
  least = mn;
  most = mx;
  positionSpread = <f64>mx / last - <f64>mn / last;
  return meanOfFixed(hi, lo, n);
}

/**
 * A position (an f64 in [0, 1] on the 2^-96 grid) as u128 fixed point with 96 fractional bits:
 * returns the low word and sets `fixedHigh`. x * 2^96 is an integer below 2^97, exact in f64, and so
 * is its part below 2^64.
 */
@inline function toFixed(x: f64): u64 {
  const y = x * SCALE_UP;
  const hi = <u64>(y * HIGH_WORD);
  fixedHigh = hi;
  return <u64>(y - <f64>hi * WORD);
}

/** The mean of `n` positions whose exact sum is `hi:lo` fixed point: the sum's nearest f64 over n. */
@inline function meanOfFixed(hi: u64, lo: u64, n: u64): f64 {
  return (toF64(hi, lo) * SCALE_DOWN) / <f64>n;
}

/** Maps an f64 to a u64 whose unsigned order is the f64 order (-0 just below +0). */
@inline function toOrderBits(x: f64): u64 {
  const bits = reinterpret<u64>(x);
  return bits ^ (<u64>(<i64>bits >> 63) | SIGN);
}

/** The f64 bits of `toOrderBits`'s result. */
@inline function fromOrderBits(u: u64): u64 {
  return u & SIGN ? u ^ SIGN : ~u;
}

/**
 * position_at_fee: for each of the `m` fee thresholds (ascending), the mean position of the samples
 * whose fee is at least the threshold (the threshold's own rank always counts). Each sample's position
 * goes, exactly, to the bucket of how many thresholds its fee reaches (counted two at a time with
 * SIMD compares, no branch); the sum at threshold j is that of the buckets above j.
 */
function positionAtFee(fee: usize, position: usize, n: u32, thresholds: usize, m: u32, out: usize): void {
  const width = <usize>((m + 1) >> 1) << 4;
  // u64 order as i64 order: flip the sign bits (i64x2 compares are signed).
  for (let j: usize = 0; j < <usize>m; j++) store<u64>(AT_FEE_THRESHOLD + (j << 3), load<u64>(thresholds + (j << 3)) ^ SIGN);
  // an odd m's spare lane: reached only by the fee u64::MAX, which reaches every threshold
  store<u64>(AT_FEE_THRESHOLD + (<usize>m << 3), ~SIGN);
  const buckets = <usize>(m + 1) << 3;
  memory.fill(BUCKET_LOW, 0, buckets);
  memory.fill(BUCKET_HIGH, 0, buckets);
  memory.fill(BUCKET_COUNT, 0, buckets);
  for (let i: usize = 0; i < <usize>n; i++) {
    const f = i64x2.splat(<i64>(load<u64>(fee + (i << 3)) ^ SIGN));
    let hits = i64x2.splat(0);
    for (let j: usize = 0; j < width; j += 16) hits = i64x2.sub(hits, i64x2.ge_s(f, v128.load(AT_FEE_THRESHOLD + j)));
    const b = min<u64>(<u64>i64x2.extract_lane(hits, 0) + <u64>i64x2.extract_lane(hits, 1), <u64>m) << 3;
    const xlo = toFixed(load<f64>(position + (i << 3)));
    const lo = load<u64>(BUCKET_LOW + <usize>b) + xlo;
    store<u64>(BUCKET_LOW + <usize>b, lo);
    store<u64>(BUCKET_HIGH + <usize>b, load<u64>(BUCKET_HIGH + <usize>b) + fixedHigh + select<u64>(1, 0, lo < xlo));
    store<u64>(BUCKET_COUNT + <usize>b, load<u64>(BUCKET_COUNT + <usize>b) + 1);
  }
  let lo: u64 = 0;
  let hi: u64 = 0;
  let count: u64 = 0;
  for (let j = <usize>m; j > 0; j--) {
    const b = j << 3;
    const add = load<u64>(BUCKET_LOW + b);
    lo += add;
    hi += load<u64>(BUCKET_HIGH + b) + select<u64>(1, 0, lo < add);
    count += load<u64>(BUCKET_COUNT + b);
    store<f64>(out + b - 8, meanOfFixed(hi, lo, count));
  }
}
