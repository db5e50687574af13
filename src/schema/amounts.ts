/**
 * Raw on-chain amounts (u64, exact) to decimal-adjusted floats and prices, each rounded once from
 * the exact rational value, so a 1-unit trade at 9 and 6 decimals has price 1000, not 999.9999999999999.
 */

const POW10: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

/** The float nearest to num / den (both non-negative, den > 0): one correctly rounded division. */
export function ratioToNumber(num: bigint, den: bigint): number {
  if (den <= 0n || num < 0n) throw new RangeError('ratioToNumber expects num >= 0 and den > 0');
  if (num === 0n) return 0;
  // scale so that the integer quotient has at least 55 significant bits, then keep a sticky bit
  // for the remainder: Number() of that integer rounds to nearest-even exactly once
  const shift = Math.max(0, 55 - (num.toString(2).length - den.toString(2).length));
  const scaled = num << BigInt(shift);
  let quotient = scaled / den;
  const sticky = scaled % den !== 0n ? 1n : 0n;
  quotient = (quotient << 1n) | sticky;
  return Number(quotient) * 2 ** -(shift + 1);
}

/** The float nearest to raw / 10^decimals. */
export function decimalAmount(raw: bigint, decimals: number): number {
  return ratioToNumber(raw, POW10[decimals]);
}

/** Price in quote per base, (quote / 10^qd) / (base / 10^bd), nearest float to the exact value. */
export function tradePrice(baseAmount: bigint, baseDecimals: number, quoteAmount: bigint, quoteDecimals: number): number {
  return ratioToNumber(quoteAmount * POW10[baseDecimals], baseAmount * POW10[quoteDecimals]);
}
