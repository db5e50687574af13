/**
 * Raw on-chain amounts (u64, exact): their saturating sums, and their decimal-adjusted floats and
 * prices, each rounded once from the exact rational value, so a 1-unit trade at 9 and 6 decimals has
 * price 1000, not 999.9999999999999.
 */

/** The largest u64, 2^64 - 1: no u64 field of a row or record exceeds it. */
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/**
 * `value` (a non-negative exact sum or product of u64 amounts) as a u64 record field: values above
 * U64_MAX saturate to it, as agave's fee arithmetic does (`saturating_add`, `unwrap_or(u64::MAX)`).
 * Saturating once at the end equals saturating at every step, so a total does not depend on how its
 * terms were grouped (block by block live, or all at once from the store for an as-of answer).
 */
export function saturateU64(value: bigint): bigint {
  return value > U64_MAX ? U64_MAX : value;
}

/** a + b for u64 amounts (a, b >= 0), saturating at U64_MAX (see `saturateU64`). */
export function saturatingAdd(a: bigint, b: bigint): bigint {
  return saturateU64(a + b);
}

const MICRO = 1_000_000n;

/**
 * The priority fee in lamports of a compute-unit price (micro-lamports) and limit:
 * ceil(price x limit / 1,000,000) in exact integers, saturating at U64_MAX as agave's does.
 */
export function priorityFeeOf(price: bigint, limit: bigint | number): bigint {
  return saturateU64((price * BigInt(limit) + MICRO - 1n) / MICRO);
}

const POW10: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

const EXACT_IN_F64 = 2n ** 53n;

/** The float nearest to num / den (both non-negative, den > 0): one correctly rounded division. */
export function ratioToNumber(num: bigint, den: bigint): number {
  if (den <= 0n || num < 0n) throw new RangeError('ratioToNumber expects num >= 0 and den > 0');
  if (num === 0n) return 0;
  // both exact as doubles (most amounts over 10^decimals): IEEE division rounds the exact quotient once
  if (num <= EXACT_IN_F64 && den <= EXACT_IN_F64) return Number(num) / Number(den);
  // scale so that the integer quotient has at least 55 significant bits (56 here: the bit lengths
  // are known within one each), then keep a sticky bit for the remainder: Number() of that integer
  // rounds to nearest-even exactly once
  const shift = Math.max(0, 58 - (bitLengthWithinOne(num) - bitLengthWithinOne(den)));
  const scaled = num << BigInt(shift);
  let quotient = scaled / den;
  const sticky = scaled % den !== 0n ? 1n : 0n;
  quotient = (quotient << 1n) | sticky;
  return Number(quotient) * 2 ** -(shift + 1);
}

/**
 * The bit length of x > 0 within one either way: from the exponent of the double nearest to it
 * (which may round up to the next power of two), from its binary digits beyond doubles' range.
 * (Its binary text for every price cost most of this division.)
 */
function bitLengthWithinOne(x: bigint): number {
  const f = Number(x);
  return f < Infinity ? Math.floor(Math.log2(f)) + 1 : x.toString(2).length;
}

/** The float nearest to raw / 10^decimals. */
export function decimalAmount(raw: bigint, decimals: number): number {
  return ratioToNumber(raw, pow10(decimals));
}

/** Price in quote per base, (quote / 10^qd) / (base / 10^bd), nearest float to the exact value. */
export function tradePrice(baseAmount: bigint, baseDecimals: number, quoteAmount: bigint, quoteDecimals: number): number {
  return ratioToNumber(quoteAmount * pow10(baseDecimals), baseAmount * pow10(quoteDecimals));
}

/** 10^d exactly: from the table for the usual decimals, computed for the rest (a u8 goes to 255). */
const pow10 = (d: number): bigint => POW10[d] ?? 10n ** BigInt(d);
