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
    const a = load<u64>(begin + (<usize>lo << 3));
    const b = load<u64>(begin + (<usize>((lo + hi) >>> 1) << 3));
    const c = load<u64>(begin + (<usize>(hi - 1) << 3));
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    // three-way partition: [lo, lt) < pivot, [lt, i) == pivot, [gt, hi) > pivot
    let lt = lo;
    let i = lo;
    let gt = hi;
    while (i < gt) {
      const x = load<u64>(begin + (<usize>i << 3));
      if (x < pivot) {
        store<u64>(begin + (<usize>i << 3), load<u64>(begin + (<usize>lt << 3)));
        store<u64>(begin + (<usize>lt << 3), x);
        lt++;
        i++;
      } else if (x > pivot) {
        gt--;
        store<u64>(begin + (<usize>i << 3), load<u64>(begin + (<usize>gt << 3)));
        store<u64>(begin + (<usize>gt << 3), x);
      } else {
        i++;
      }
    }
    if (k < lt) hi = lt;
    else if (k >= gt) lo = gt;
    else return pivot;
  }
  insertionSortU64(begin + (<usize>lo << 3), hi - lo);
  return load<u64>(begin + (<usize>k << 3));
}
