/** The first index in [lo, hi) of ascending `values` whose value is >= `x` (hi when there is none): a binary search. */
export function lowerBound<T extends bigint | number>(values: ArrayLike<T>, x: T, lo = 0, hi = values.length): number {
  return lowerBoundBy(values, (value) => value, x, lo, hi);
}

/** The first index in [lo, hi) of `items`, ascending by `key`, whose key is >= `x` (hi when there is none). */
export function lowerBoundBy<T, K extends bigint | number>(
  items: ArrayLike<T>, key: (item: T) => K, x: K, lo = 0, hi = items.length,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(items[mid]!) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
