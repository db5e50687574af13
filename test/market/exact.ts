/**
 * Exact rational arithmetic over floats for the market tests' oracle: every finite float is an
 * integer multiple of 2^-1074, so sums of floats (and of float x integer products) are exact as
 * bigints at that scale, and `ratioToNumber` rounds the result once. Written without the engine's
 * exact-sum module.
 */
import { ratioToNumber } from '../../src/schema/amounts.js';

const SCALE = 1n << 1074n;
const view = new DataView(new ArrayBuffer(8));

/** x (finite, >= 0) as an integer count of 2^-1074. */
export function scaled(x: number): bigint {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`scaled: ${x}`);
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exponent = (hi >>> 20) & 0x7ff;
  const fraction = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return exponent === 0 ? fraction : ((1n << 52n) | fraction) << BigInt(exponent - 1);
}

/** A scaled exact value rounded once to the nearest float. */
export const unscaled = (v: bigint): number => ratioToNumber(v, SCALE);

/** The correctly rounded sum of non-negative floats. */
export const exactSum = (values: Iterable<number>): number => {
  let total = 0n;
  for (const v of values) total += scaled(v);
  return unscaled(total);
};
