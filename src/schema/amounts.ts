/** Raw on-chain amounts (u64, exact) to decimal-adjusted floats, rounded once. */

/**
 * The float nearest to raw / 10^decimals. Built from the exact decimal text, so there is one
 * rounding, not the two of Number(raw) / 10 ** decimals.
 */
export function decimalAmount(raw: bigint, decimals: number): number {
  if (decimals === 0) return Number(raw);
  const digits = raw.toString().padStart(decimals + 1, '0');
  return Number(`${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`);
}
