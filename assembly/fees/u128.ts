/**
 * Exact sums of u64 values as u128 (two words), their mean and their nearest f64: the integer
 * families never pass through f64 (DESIGN.md 6).
 */

/** Quotient and remainder of the last `divide`. */
export let quotient: u64 = 0;
export let remainder: u64 = 0;

/**
 * Divides the u128 `hi:lo` by `n` (> 0) into `quotient` and `remainder`, by 32-bit limbs. The
 * quotient must fit a u64 (true for a sum of `n` u64 values: hi < n).
 */
export function divide(hi: u64, lo: u64, n: u32): void {
  const d = <u64>n;
  let r = hi % d;
  let t = (r << 32) | (lo >> 32);
  const q1 = t / d;
  r = t % d;
  t = (r << 32) | (lo & 0xffffffff);
  quotient = (q1 << 32) | (t / d);
  remainder = t % d;
}

/** The u64 mean of `n` values summing to `hi:lo`, rounded half up. */
export function meanRoundedHalfUp(hi: u64, lo: u64, n: u32): u64 {
  divide(hi, lo, n);
  return quotient + select<u64>(1, 0, remainder << 1 >= <u64>n);
}

/** The f64 nearest to the u128 `hi:lo` (round half to even, as `Number(bigint)`). */
export function toF64(hi: u64, lo: u64): f64 {
  if (hi == 0) return <f64>lo;
  const z = clz<u64>(hi);
  const top = z == 0 ? hi : (hi << z) | (lo >> (64 - z));
  const rest = z == 0 ? lo : lo << z;
  // 64 significant bits and a sticky bit below the 53 kept: one correct rounding.
  const bits = top | select<u64>(1, 0, rest != 0);
  return <f64>bits * reinterpret<f64>(<u64>(1023 + 64 - z) << 52);
}
