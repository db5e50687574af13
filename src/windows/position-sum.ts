/**
 * Exact sums of positions, the one definition of a mean position (docs/semantics.md, "Mean
 * positions"): the positions' exact sum, rounded once to the nearest f64, divided by their count.
 * An exact sum does not depend on the order of its terms, so a window kept incrementally (entries
 * added and removed in any order) gives the same mean, to the bit, as the kernels' pass over it.
 *
 * A position is an f64 in [0, 1] on the 2^-96 grid: index / (n - 1) with n < 2^32 transactions in a
 * block is 0 or at least 2^-32, so its 53 significant bits end at or above 2^-85. A sum is kept as
 * four unnormalized limbs of 24 bits (x * 2^96 = a3 2^72 + a2 2^48 + a1 2^24 + a0), each an f64
 * integer: a limb takes at most 2^24 a term, so 2^29 terms add up exactly in plain f64 additions.
 * The kernels keep the same sum as a u128 (assembly/fees/sample-stats.ts). The market's ExactSum
 * (market/exact-sum.ts) sums any floats exactly, as a list of partials per sum; positions, on a
 * fixed grid, need only four numbers, so the sliding windows keep one sum a value bucket and window
 * (windows/nested-windows.ts).
 */

/** Limbs per sum. */
export const LIMBS = 4;
const LIMB = 2 ** 24;
const SCALE_DOWN = 2 ** -96;

/** Whether `x` is a position whose exact sums this module keeps. */
export function isPosition(x: number): boolean {
  return x >= 0 && x <= 1 && Number.isInteger(x * 2 ** 96);
}

/**
 * Adds the position `x` to the sum at `sums[at .. at + 4)`, or takes it away with `sign` -1: a sum's
 * limbs are the sums of its terms' limbs, whatever came and went before, so this stays exact.
 */
export function addPosition(sums: Float64Array, at: number, x: number, sign: 1 | -1 = 1): void {
  let y = x * LIMB;
  const a3 = Math.floor(y);
  y = (y - a3) * LIMB;
  const a2 = Math.floor(y);
  y = (y - a2) * LIMB;
  const a1 = Math.floor(y);
  sums[at] += sign * a3;
  sums[at + 1] += sign * a2;
  sums[at + 2] += sign * a1;
  sums[at + 3] += sign * (y - a1) * LIMB;
}

/** Adds the sum at `from[fromAt ..]` to the sum at `sums[at ..]`. */
export function addSum(sums: Float64Array, at: number, from: Float64Array, fromAt: number): void {
  sums[at] += from[fromAt];
  sums[at + 1] += from[fromAt + 1];
  sums[at + 2] += from[fromAt + 2];
  sums[at + 3] += from[fromAt + 3];
}

/** The f64 nearest the sum at `sums[at ..]` (ties to even: `Number(bigint)`). */
export function sumValue(sums: Float64Array, at = 0): number {
  const scaled = (BigInt(sums[at]) << 72n) + (BigInt(sums[at + 1]) << 48n) + (BigInt(sums[at + 2]) << 24n) + BigInt(sums[at + 3]);
  return Number(scaled) * SCALE_DOWN;
}

/** The mean of `count` (> 0) positions summing to the sum at `sums[at ..]`. */
export function meanPosition(sums: Float64Array, at: number, count: number): number {
  return sumValue(sums, at) / count;
}
