/**
 * Exact arithmetic for the oracles, independent of the engine: a ratio of non-negative bigints
 * rounded once to the nearest float64 (ties to even), at any magnitude (far above 2^53, down to
 * subnormals), and every finite float as an exact integer count of 2^-1074, so that sums of
 * floats are exact bigints and can be rounded once.
 */

const MIN_EXPONENT = -1074; // the weight of the least significant bit of a subnormal
const TWO_52 = 1n << 52n;
const TWO_53 = 1n << 53n;

const bitLength = (x: bigint): number => (x === 0n ? 0 : x.toString(2).length);

/** 2^k as a float64, for k in [-1074, 1023], built without relying on `**` for subnormals. */
function powerOfTwo(k: number): number {
  if (k >= -1022) return 2 ** k;
  return 2 ** -1022 * 2 ** (k + 1022); // exact: the result is a subnormal power of two
}

/** The float64 nearest to num / den (num >= 0, den > 0), ties to even; Infinity past the largest float. */
export function ratioToF64(num: bigint, den: bigint): number {
  if (den <= 0n || num < 0n) throw new RangeError(`ratioToF64(${num}, ${den})`);
  if (num === 0n) return 0;
  // the value is q' x 2^e with q' in [2^52, 2^53): find e, then the integer part q and remainder
  let e = bitLength(num) - bitLength(den) - 53;
  const split = (exp: number): [bigint, bigint, bigint] => {
    const n = exp < 0 ? num << BigInt(-exp) : num;
    const d = exp > 0 ? den << BigInt(exp) : den;
    return [n / d, n % d, d];
  };
  let [q, r, d] = split(e);
  while (q >= TWO_53) [q, r, d] = split(++e);
  while (q < TWO_52) [q, r, d] = split(--e);
  if (e < MIN_EXPONENT) {
    // subnormal: fewer significant bits, the last one weighs 2^-1074
    e = MIN_EXPONENT;
    [q, r, d] = split(e);
  }
  const twice = 2n * r;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  if (q === TWO_53) {
    q = TWO_52;
    e += 1;
  }
  if (e + 52 > 1023) return Infinity;
  return Number(q) * powerOfTwo(e);
}

const view = new DataView(new ArrayBuffer(8));

/** A finite float x >= 0 as an exact integer count of 2^-1074. */
export function f64ToScaled(x: number): bigint {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`f64ToScaled: ${x}`);
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return biased === 0 ? fraction : (TWO_52 | fraction) << BigInt(biased - 1);
}

/** 2^1074: the scale of `f64ToScaled`. */
export const SCALE = 1n << 1074n;

/** A count of 2^-1074 rounded once to the nearest float. */
export const scaledToF64 = (v: bigint): number => ratioToF64(v, SCALE);

/** The correctly rounded sum of non-negative floats. */
export function exactSum(values: Iterable<number>): number {
  let total = 0n;
  for (const v of values) total += f64ToScaled(v);
  return scaledToF64(total);
}

/** 10^k as a bigint. */
export const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** raw / 10^decimals, rounded once. */
export const decimalAmount = (raw: bigint, decimals: number): number => ratioToF64(raw, pow10(decimals));

/** (quote / 10^qd) / (base / 10^bd): the price in quote per base, rounded once. */
export const tradePrice = (base: bigint, baseDecimals: number, quote: bigint, quoteDecimals: number): number =>
  ratioToF64(quote * pow10(baseDecimals), base * pow10(quoteDecimals));

/** ceil(a / b) for non-negative bigints. */
export const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
