import { growTo } from './grow';
import { Status } from './status';
import { insertionSortU64 } from './sort';

/**
 * Exact nearest-rank percentiles of u64 values (DESIGN.md 6): for sorted x[0..n-1] and p in
 * thousandths of a percent, pN = x[max(0, ceil(p * n / 100000) - 1)], in integer arithmetic.
 *
 * Method: MSD radix select by byte, all requested ranks in one descent. A segment's highest
 * differing byte comes from the OR and AND of its values (one SIMD pass), so bytes that all values
 * share (the zero high bytes of small fees, duplicates) cost nothing. The segment is histogrammed on
 * that byte; only the buckets holding a requested rank are scattered, compacted, into the other
 * buffer, and the descent recurses into those buckets alone. Each level reads its segment three
 * times and the byte strictly decreases, so the work is O(8n), never quadratic.
 *
 * Memory above `__heap_base`: [input: capacity values][scratch: capacity values], grown by `reserve`.
 */

/** Most percentiles one call can ask for. */
const MAX_PERCENTILES: u32 = 1024;
/** Segments this short are finished by insertion sort. */
const SMALL: u32 = 24;
/** Depth of the descent: one level per byte of a u64. */
const LEVELS: usize = 8;

// Static scratch: nothing is allocated at run time.
const RANKS = memory.data(<i32>(MAX_PERCENTILES << 2), 16); // requested ranks, sorted ascending
const SLOTS = memory.data(<i32>(MAX_PERCENTILES << 2), 16); // output slot of each sorted rank
const MILLIS = memory.data(<i32>(MAX_PERCENTILES << 2), 16); // caller's percentiles (thousandths)
const OUTPUT = memory.data(<i32>(MAX_PERCENTILES << 3), 16); // one u64 per percentile
const HIST = memory.data(<i32>(LEVELS * 256 * 4), 64); // per level: count per bucket
const ROUTE = memory.data(<i32>(LEVELS * 256 * 8), 64); // per level: (write pointer, step) per bucket
const SINK = memory.data(16, 16); // where values of unwanted buckets are written (step 0)

let inputBase: usize = 0;
let scratchBase: usize = 0;
let reserved: u32 = 0;
let outBase: usize = 0;
let segmentOr: u64 = 0;
let segmentAnd: u64 = 0;

/**
 * Makes room for `n` input values plus the kernel's scratch, growing (and touching, so the first
 * call does not pay page faults) linear memory when needed. Growing detaches every JS view of the
 * memory: re-create views after calling this. Returns `Status.OK` or `Status.OUT_OF_MEMORY`.
 */
export function reserve(n: u32): Status {
  if (inputBase == 0) inputBase = (__heap_base + 63) & ~63;
  if (n <= reserved) return Status.OK;
  let want = <u64>reserved + (<u64>reserved >> 1);
  if (want < <u64>n) want = <u64>n;
  if (!grow(want) && !grow(<u64>n)) return Status.OUT_OF_MEMORY;
  return Status.OK;
}

function grow(values: u64): bool {
  if (!growTo(<u64>inputBase + values * 16)) return false;
  reserved = <u32>values;
  scratchBase = inputBase + <usize>(values << 3);
  return true;
}

/** How many values fit in the input area (0 before the first `reserve`). */
export function capacity(): u32 {
  return reserved;
}

/** Where the caller writes the input values (valid after `reserve`). */
export function inputPtr(): usize {
  return inputBase;
}

/** Where the caller writes the percentiles (u32 thousandths of a percent, at most `maxPercentiles()`). */
export function millisPtr(): usize {
  return MILLIS;
}

/** Where `percentilesU64` results can be written (one u64 per percentile). */
export function outputPtr(): usize {
  return OUTPUT;
}

/** Most percentiles one call can ask for. */
export function maxPercentiles(): u32 {
  return MAX_PERCENTILES;
}

/**
 * Writes to `out[i]` the nearest-rank percentile `millis[i]` (u32, 0..100000) of the `n` u64 values
 * at `values`. The values are reordered in place; `n` must be at most `capacity()` and `values` must
 * not overlap the scratch area (the input area from `inputPtr()` never does).
 */
export function percentilesU64(values: usize, n: u32, millis: usize, k: u32, out: usize): Status {
  if (n > reserved) return Status.CAPACITY;
  return selectPercentilesU64(values, scratchBase, n, millis, k, out);
}

/**
 * `percentilesU64` over caller-managed memory, for other kernel modules: `scratch` holds room for
 * `n` u64 values and overlaps neither `values` nor `out`. The values are reordered in place.
 */
export function selectPercentilesU64(values: usize, scratch: usize, n: u32, millis: usize, k: u32, out: usize): Status {
  if (n == 0) return Status.EMPTY;
  if (k > MAX_PERCENTILES) return Status.TOO_MANY_PERCENTILES;
  for (let i: u32 = 0; i < k; i++) {
    const p = load<u32>(millis + (<usize>i << 2));
    if (p > 100000) return Status.BAD_PERCENTILE;
    const r = (<u64>p * <u64>n + 99999) / 100000;
    insertRank(i, r == 0 ? 0 : <u32>(r - 1));
  }
  if (k == 0) return Status.OK;
  outBase = out;
  select(values, scratch, 0, n, 0, 0, k, 0);
  return Status.OK;
}

/** Inserts rank `r` for output slot `slot` into the first `slot` sorted ranks. */
function insertRank(slot: u32, r: u32): void {
  let j = slot;
  while (j > 0 && load<u32>(RANKS + ((<usize>j - 1) << 2)) > r) {
    store<u32>(RANKS + (<usize>j << 2), load<u32>(RANKS + ((<usize>j - 1) << 2)));
    store<u32>(SLOTS + (<usize>j << 2), load<u32>(SLOTS + ((<usize>j - 1) << 2)));
    j--;
  }
  store<u32>(RANKS + (<usize>j << 2), r);
  store<u32>(SLOTS + (<usize>j << 2), slot);
}

@inline function rankAt(j: u32): u32 {
  return load<u32>(RANKS + (<usize>j << 2));
}

@inline function emit(j: u32, value: u64): void {
  store<u64>(outBase + (<usize>load<u32>(SLOTS + (<usize>j << 2)) << 3), value);
}

/**
 * Resolves sorted ranks [rlo, rhi) that fall in one segment: `len` values at index `at` of buffer
 * `src`, holding global ranks [base, base + len). Wanted buckets go to the same index range of
 * buffer `dst`, whose contents there are no longer needed.
 */
function select(src: usize, dst: usize, at: u32, len: u32, base: u32, rlo: u32, rhi: u32, level: usize): void {
  const begin = src + (<usize>at << 3);
  const end = begin + (<usize>len << 3);
  if (len <= SMALL) {
    insertionSortU64(begin, len);
    for (let j = rlo; j < rhi; j++) emit(j, load<u64>(begin + (<usize>(rankAt(j) - base) << 3)));
    return;
  }
  orAnd(begin, end);
  const diff = segmentOr ^ segmentAnd; // the bits in which some values differ
  if (diff == 0) {
    for (let j = rlo; j < rhi; j++) emit(j, segmentOr);
    return;
  }
  // Every value shares the bits above this byte, so it alone splits the segment.
  const shift = (63 - clz<u64>(diff)) & ~7;
  const hist = HIST + level * 1024;
  const route = ROUTE + level * 2048;

  memory.fill(hist, 0, 1024);
  for (let p = begin; p < end; p += 8) {
    const h = hist + (<usize>((load<u64>(p) >> shift) & 0xff) << 2);
    store<u32>(h, load<u32>(h) + 1);
  }

  // Route each bucket holding a requested rank to its compacted place in dst, the others to SINK.
  let seen = base;
  let placed: u32 = 0;
  let j = rlo;
  for (let b: usize = 0; b < 256; b++) {
    const count = load<u32>(hist + (b << 2));
    seen += count;
    const r = route + (b << 3);
    if (j < rhi && rankAt(j) < seen) {
      store<u32>(r, <u32>(dst + (<usize>(at + placed) << 3)));
      store<u32>(r, 8, 4);
      placed += count;
      while (j < rhi && rankAt(j) < seen) j++;
    } else {
      store<u32>(r, <u32>SINK);
      store<u32>(r, 0, 4);
    }
  }

  for (let p = begin; p < end; p += 8) {
    const x = load<u64>(p);
    const b = <usize>((x >> shift) & 0xff);
    const r = route + (b << 3);
    const w = load<u32>(r);
    store<u64>(<usize>w, x);
    store<u32>(r, w + load<u32>(r, 4));
  }

  seen = base;
  placed = 0;
  j = rlo;
  for (let b: usize = 0; b < 256 && j < rhi; b++) {
    const count = load<u32>(hist + (b << 2));
    const first = seen;
    seen += count;
    if (rankAt(j) < seen) {
      const jlo = j;
      while (j < rhi && rankAt(j) < seen) j++;
      select(dst, src, at + placed, count, first, jlo, j, level + 1);
      placed += count;
    }
  }
}

/** Sets `segmentOr` and `segmentAnd` to the OR and AND of the u64 values in [begin, end). */
function orAnd(begin: usize, end: usize): void {
  let p = begin;
  let vor = i64x2.splat(0);
  let vand = i64x2.splat(-1);
  for (; p + 16 <= end; p += 16) {
    const v = v128.load(p);
    vor = v128.or(vor, v);
    vand = v128.and(vand, v);
  }
  let or = <u64>(i64x2.extract_lane(vor, 0) | i64x2.extract_lane(vor, 1));
  let and = <u64>(i64x2.extract_lane(vand, 0) & i64x2.extract_lane(vand, 1));
  if (p < end) {
    const x = load<u64>(p);
    or |= x;
    and &= x;
  }
  segmentOr = or;
  segmentAnd = and;
}
