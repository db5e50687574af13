import { selectPercentilesU64 } from '../percentiles';
import { insertionSortU64 } from '../sort';

/**
 * Nearest-rank percentiles (DESIGN.md 6) of u64 values, exact, by whichever is cheaper for `n`.
 *
 * Above `SORT_LIMIT` values: the radix select of percentiles.ts. At block sizes (~1,000 values)
 * its fixed cost per 256-bucket segment dominates, so instead the caller's own pass over the
 * values counts them into log-spaced buckets (2^FINE per octave, so a bucket spans at most 1/32 of
 * its values: a few values each on fee-like data), one pass scatters them in bucket order, and
 * only the buckets that hold a requested rank are sorted: by insertion when small, else by an LSD
 * radix sort over the bytes in which its values differ (so no input is quadratic). Small integers
 * (a block's transaction indexes) are counted exactly instead: nothing to move or sort.
 */

const SORT_LIMIT: u32 = 4096;
const FINE: u64 = 5;
const BUCKETS: i32 = <i32>(64 - FINE + 1) << <i32>FINE;
const INSERTION_LIMIT: u32 = 32;
/** Values below this are counted exactly, one bucket per value, by `countExact`. */
export const EXACT_LIMIT: u32 = 4096;
// max(BUCKETS, EXACT_LIMIT) buckets: count, then start, then end; all 0 between calls.
const ENDS = memory.data(4096 << 2, 64);
const SORTED = memory.data(BUCKETS, 16); // per bucket: 1 once sorted
const COUNTS = memory.data(8 << 10, 64); // LSD: per byte of a u64, 256 u32 counts

/** Counts `x` into its bucket: call it once for each of the values before `percentiles`. */
@inline export function countBucket(x: u64): void {
  const c = ENDS + (<usize>bucket(x) << 2);
  store<u32>(c, load<u32>(c) + 1);
}

/** Counts `x` (< `EXACT_LIMIT`) into its own bucket: once for each value before `percentilesExact`. */
@inline export function countExact(x: u64): void {
  const c = ENDS + (<usize>x << 2);
  store<u32>(c, load<u32>(c) + 1);
}

/** Clears the exact counts from `from` to `EXACT_LIMIT`: when the values were not all below it. */
export function clearExact(from: u64): void {
  memory.fill(ENDS + (<usize>from << 2), 0, <usize>(<u64>EXACT_LIMIT - from) << 2);
}

/**
 * `percentiles` of `n` > 0 values in [least, most], most < `EXACT_LIMIT`, each counted once by
 * `countExact` (a block's transaction indexes): a bucket holds one value, so its rank gives the
 * value, with nothing to move or sort.
 */
export function percentilesExact(n: u32, least: u64, most: u64, millis: usize, k: u32, out: usize): void {
  const ends = ENDS + (<usize>least << 2);
  const range = <u32>(most - least) + 1;
  let sum: u32 = 0;
  for (let c = ends; c < ends + (<usize>range << 2); c += 4) {
    sum += load<u32>(c);
    store<u32>(c, sum);
  }
  for (let i: usize = 0; i < <usize>k; i++) {
    const r = (<u64>load<u32>(millis + (i << 2)) * <u64>n + 99999) / 100000;
    store<u64>(out + (i << 3), least + <u64>endingAfter(ends, range, <u32>(r == 0 ? 0 : r - 1)));
  }
  memory.fill(ends, 0, <usize>range << 2);
}

/** The first of `range` ascending bucket ends at `ends` that is above `rank`. */
@inline function endingAfter(ends: usize, range: u32, rank: u32): u32 {
  let lo: u32 = 0;
  let hi: u32 = range - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (load<u32>(ends + (<usize>mid << 2)) > rank) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Writes to `out[i]` percentile `millis[i]` (thousandths, already checked <= 100000) of the `n` > 0
 * values at `values`, whose least is `least` and greatest `most` and which were each counted once
 * by `countBucket`. Reorders the values; `scratch` holds n values and overlaps nothing else.
 */
export function percentiles(values: usize, scratch: usize, n: u32, least: u64, most: u64, millis: usize, k: u32, out: usize): void {
  const first = bucket(least);
  const range = bucket(most) - first + 1;
  const ends = ENDS + (<usize>first << 2);
  if (n > SORT_LIMIT) {
    memory.fill(ends, 0, <usize>range << 2);
    selectPercentilesU64(values, scratch, n, millis, k, out);
    return;
  }
  let sum: u32 = 0;
  for (let c = ends; c < ends + (<usize>range << 2); c += 4) {
    const count = load<u32>(c);
    store<u32>(c, sum);
    sum += count;
  }
  const end = <usize>n << 3;
  for (let p: usize = 0; p < end; p += 8) {
    const x = load<u64>(values + p);
    const c = ENDS + (<usize>bucket(x) << 2);
    const at = load<u32>(c);
    store<u64>(scratch + (<usize>at << 3), x);
    store<u32>(c, at + 1);
  }

  memory.fill(SORTED, 0, <usize>range);
  for (let i: usize = 0; i < <usize>k; i++) {
    const r = (<u64>load<u32>(millis + (i << 2)) * <u64>n + 99999) / 100000;
    const rank = <u32>(r == 0 ? 0 : r - 1);
    const lo = endingAfter(ends, range, rank); // the bucket holding `rank`
    if (load<u8>(SORTED + lo) == 0) {
      const start: u32 = lo == 0 ? 0 : load<u32>(ends + (<usize>(lo - 1) << 2));
      const offset = <usize>start << 3;
      sortRun(scratch + offset, values + offset, load<u32>(ends + (<usize>lo << 2)) - start);
      store<u8>(SORTED + lo, 1);
    }
    store<u64>(out + (i << 3), load<u64>(scratch + (<usize>rank << 3)));
  }
  memory.fill(ends, 0, <usize>range << 2); // all counts are zero between calls
}

/**
 * `percentiles` of values that were not counted: for keys such as f64 order bits, whose leading
 * bits all agree, so that log-spaced buckets would not split them. Sorts them all.
 */
export function percentilesUncounted(values: usize, scratch: usize, n: u32, millis: usize, k: u32, out: usize): void {
  if (n > SORT_LIMIT) {
    selectPercentilesU64(values, scratch, n, millis, k, out);
    return;
  }
  const sorted = radixSort(values, scratch, n);
  for (let i: usize = 0; i < <usize>k; i++) {
    const r = (<u64>load<u32>(millis + (i << 2)) * <u64>n + 99999) / 100000;
    store<u64>(out + (i << 3), load<u64>(sorted + (<usize>(r == 0 ? 0 : r - 1) << 3)));
  }
}

/** Monotone bucket of `x`: exact below 2^FINE, else (octave, FINE bits after the leading one). */
@inline function bucket(x: u64): u32 {
  if (x < (1 << FINE)) return <u32>x;
  const e = 63 - clz<u64>(x);
  return <u32>(((e - FINE + 1) << FINE) | ((x >> (e - FINE)) & ((1 << FINE) - 1)));
}

/** Sorts the `len` values at `at` in place; `spare` has room for `len` values. */
function sortRun(at: usize, spare: usize, len: u32): void {
  if (len <= INSERTION_LIMIT) {
    insertionSortU64(at, len);
    return;
  }
  // A large bucket is most often one repeated value (the 200,000 default compute-unit limit).
  const x = load<u64>(at);
  let same = true;
  for (let p = at + 8; p < at + (<usize>len << 3); p += 8) same &= load<u64>(p) == x;
  if (same) return;
  const sorted = radixSort(at, spare, len);
  if (sorted != at) memory.copy(at, sorted, <usize>len << 3);
}

/** LSD radix sort of `n` u64 values between `values` and `scratch`; returns the one holding them sorted. */
function radixSort(values: usize, scratch: usize, n: u32): usize {
  const end = <usize>n << 3;
  // One pass counts all eight bytes; a byte whose values all share one bucket permutes nothing.
  memory.fill(COUNTS, 0, 8 << 10);
  for (let p: usize = 0; p < end; p += 8) {
    const x = load<u64>(values + p);
    count(x, 0);
    count(x, 1);
    count(x, 2);
    count(x, 3);
    count(x, 4);
    count(x, 5);
    count(x, 6);
    count(x, 7);
  }
  let src = values;
  let dst = scratch;
  for (let byte: usize = 0; byte < 8; byte++) {
    const counts = COUNTS + (byte << 10);
    const shift = <u64>(byte << 3);
    let sum: u32 = 0;
    let shared = false;
    for (let c = counts; c < counts + 1024; c += 4) {
      const k = load<u32>(c);
      shared |= k == n;
      store<u32>(c, sum);
      sum += k;
    }
    if (shared) continue;
    for (let p: usize = 0; p < end; p += 8) {
      const x = load<u64>(src + p);
      const c = counts + (<usize>((x >> shift) & 0xff) << 2);
      const at = load<u32>(c);
      store<u64>(dst + (<usize>at << 3), x);
      store<u32>(c, at + 1);
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

@inline function count(x: u64, byte: usize): void {
  const c = COUNTS + (byte << 10) + (<usize>((x >> (byte << 3)) & 0xff) << 2);
  store<u32>(c, load<u32>(c) + 1);
}
