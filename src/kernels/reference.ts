/**
 * Plain TypeScript reference of the percentile kernel, the test oracle (DESIGN.md 6): sort a copy,
 * then index by the nearest-rank formula x[max(0, ceil(p * n / 100000) - 1)] in BigInt arithmetic.
 */

/** Nearest-rank percentiles of `values`; `millis[i]` in thousandths of a percent (0..100000). */
export function percentilesU64Reference(values: BigUint64Array, millis: Uint32Array): BigUint64Array {
  if (values.length === 0) throw new Error('percentilesU64Reference: no values');
  const sorted = values.slice().sort(); // typed arrays sort numerically
  const n = BigInt(sorted.length);
  const out = new BigUint64Array(millis.length);
  millis.forEach((p, i) => {
    if (p > 100_000) throw new Error(`percentilesU64Reference: percentile ${p} outside 0..100000`);
    const rank = (BigInt(p) * n + 99_999n) / 100_000n; // ceil(p * n / 100000), 1-based
    out[i] = sorted[Number(rank === 0n ? 0n : rank - 1n)]!;
  });
  return out;
}
