/** Small sorting helpers shared by the kernel families. */

/** Sorts the `len` u64 values at `begin` ascending in place (only for short runs). */
export function insertionSortU64(begin: usize, len: u32): void {
  for (let i: u32 = 1; i < len; i++) {
    const x = load<u64>(begin + (<usize>i << 3));
    let j = i;
    while (j > 0) {
      const y = load<u64>(begin + ((<usize>j - 1) << 3));
      if (y <= x) break;
      store<u64>(begin + (<usize>j << 3), y);
      j--;
    }
    store<u64>(begin + (<usize>j << 3), x);
  }
}

/**
 * The k-th smallest (0-based, k < len) of the `len` u64 values at `begin`, reordering them in place
 * (quickselect: median-of-three pivots, expected O(len); short runs are sorted).
 */
export function selectU64(begin: usize, len: u32, k: u32): u64 {
  let lo: u32 = 0;
  let hi: u32 = len; // the k-th is within [lo, hi)
  while (hi - lo > 16) {
    const pivot = partition(begin, 0, lo, hi);
    if (k < lessEnd) hi = lessEnd;
    else if (k >= greaterStart) lo = greaterStart;
    else return pivot;
  }
  insertionSortU64(begin + (<usize>lo << 3), hi - lo);
  return load<u64>(begin + (<usize>k << 3));
}

/**
 * Sorts the `len` u64 keys at `keys` ascending in place, and the f64 payloads at `pays` with them
 * when `pays` is not 0 (quicksort with three-way partitions, so that runs of equal keys end at
 * once; the smaller side recursed into, the larger looped over; short runs by insertion).
 */
export function sortPairsU64(keys: usize, pays: usize, len: u32): void {
  let lo: u32 = 0;
  let hi: u32 = len;
  while (hi - lo > 16) {
    partition(keys, pays, lo, hi);
    const lt = lessEnd;
    const gt = greaterStart;
    if (lt - lo < hi - gt) {
      sortPairsU64(keys + (<usize>lo << 3), pays == 0 ? 0 : pays + (<usize>lo << 3), lt - lo);
      lo = gt;
    } else {
      sortPairsU64(keys + (<usize>gt << 3), pays == 0 ? 0 : pays + (<usize>gt << 3), hi - gt);
      hi = lt;
    }
  }
  // insertion sort of [lo, hi)
  for (let i = lo + 1; i < hi; i++) {
    const x = load<u64>(keys + (<usize>i << 3));
    const px = pays == 0 ? 0 : load<f64>(pays + (<usize>i << 3));
    let j = i;
    while (j > lo) {
      const y = load<u64>(keys + ((<usize>j - 1) << 3));
      if (y <= x) break;
      store<u64>(keys + (<usize>j << 3), y);
      if (pays != 0) store<f64>(pays + (<usize>j << 3), load<f64>(pays + ((<usize>j - 1) << 3)));
      j--;
    }
    store<u64>(keys + (<usize>j << 3), x);
    if (pays != 0) store<f64>(pays + (<usize>j << 3), px);
  }
}

/** Where `partition` left its parts: [lo, lessEnd) < pivot, [lessEnd, greaterStart) == pivot, [greaterStart, hi) > pivot. */
let lessEnd: u32 = 0;
let greaterStart: u32 = 0;

/**
 * Partitions keys [lo, hi) (hi - lo > 2) three ways around the median of the first, middle and
 * last (payloads at `pays` moved with them unless it is 0); returns the pivot.
 */
function partition(keys: usize, pays: usize, lo: u32, hi: u32): u64 {
  const a = load<u64>(keys + (<usize>lo << 3));
  const b = load<u64>(keys + (<usize>((lo + hi) >>> 1) << 3));
  const c = load<u64>(keys + (<usize>(hi - 1) << 3));
  const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
  let lt = lo;
  let i = lo;
  let gt = hi;
  while (i < gt) {
    const x = load<u64>(keys + (<usize>i << 3));
    if (x < pivot) {
      swapPair(keys, pays, i, lt);
      lt++;
      i++;
    } else if (x > pivot) {
      gt--;
      swapPair(keys, pays, i, gt);
    } else {
      i++;
    }
  }
  lessEnd = lt;
  greaterStart = gt;
  return pivot;
}

@inline function swapPair(keys: usize, pays: usize, i: u32, j: u32): void {
  const ki = keys + (<usize>i << 3);
  const kj = keys + (<usize>j << 3);
  const k = load<u64>(ki);
  store<u64>(ki, load<u64>(kj));
  store<u64>(kj, k);
  if (pays == 0) return;
  const pi = pays + (<usize>i << 3);
  const pj = pays + (<usize>j << 3);
  const p = load<f64>(pi);
  store<f64>(pi, load<f64>(pj));
  store<f64>(pj, p);
}
