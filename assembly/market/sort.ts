/**
 * Stable ascending sort of 16-byte (price f64, base_volume f64) records by price: insertion sort
 * of short runs, then bottom-up merges between two buffers. Records of equal price keep their
 * order. Prices must not be NaN.
 */

/** Runs this short are sorted by insertion before merging. */
const RUN: u32 = 16;

/**
 * Sorts the `n` records at `a`, using `b` (room for `n` records) as the other buffer; returns the
 * buffer that holds the sorted records (`a` or `b`).
 */
export function sortByPrice(a: usize, b: usize, n: u32): usize {
  for (let lo: u32 = 0; lo < n; lo += RUN) insertionSort(a, lo, min(lo + RUN, n));
  let src = a;
  let dst = b;
  for (let width = RUN; width < n; width <<= 1) {
    for (let lo: u32 = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      merge(src, dst, lo, mid, min(mid + width, n));
    }
    const swap = src;
    src = dst;
    dst = swap;
  }
  return src;
}

@inline function priceOf(record: v128): f64 {
  return f64x2.extract_lane(record, 0);
}

function insertionSort(at: usize, lo: u32, hi: u32): void {
  for (let i = lo + 1; i < hi; i++) {
    const x = v128.load(at + (<usize>i << 4));
    const price = priceOf(x);
    let j = i;
    while (j > lo) {
      const y = v128.load(at + ((<usize>j - 1) << 4));
      if (priceOf(y) <= price) break;
      v128.store(at + (<usize>j << 4), y);
      j--;
    }
    v128.store(at + (<usize>j << 4), x);
  }
}

/** Merges the sorted runs [lo, mid) and [mid, hi) of `src` into the same range of `dst`. */
function merge(src: usize, dst: usize, lo: u32, mid: u32, hi: u32): void {
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) {
    const left = v128.load(src + (<usize>i << 4));
    const right = v128.load(src + (<usize>j << 4));
    // Take the left record on ties: the sort is stable.
    if (priceOf(right) < priceOf(left)) {
      v128.store(dst + (<usize>k << 4), right);
      j++;
    } else {
      v128.store(dst + (<usize>k << 4), left);
      i++;
    }
    k++;
  }
  if (i < mid) memory.copy(dst + (<usize>k << 4), src + (<usize>i << 4), <usize>(mid - i) << 4);
  else if (j < hi) memory.copy(dst + (<usize>k << 4), src + (<usize>j << 4), <usize>(hi - j) << 4);
}
