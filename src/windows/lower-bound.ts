/** The first index in [lo, hi) of ascending `values` whose value is >= `x` (hi when there is none): a binary search. */
export function lowerBound<T extends bigint | number>(values: ArrayLike<T>, x: T, lo = 0, hi = values.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
