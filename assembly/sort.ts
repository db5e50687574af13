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
