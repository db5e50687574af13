import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addPosition, isPosition, LIMBS, meanPosition, sumValue } from '../../src/windows/position-sum.js';
import { exactSum } from '../oracle/rational.js';

/** A position as the engine makes them: index / (n - 1) for a block of n transactions (n < 2^32). */
const position = fc.tuple(fc.integer({ min: 2, max: 2 ** 32 - 1 }), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([n, at]) => Math.floor(at * (n - 1)) / (n - 1));

function sumOf(values: readonly number[]): Float64Array {
  const sums = new Float64Array(LIMBS);
  for (const x of values) addPosition(sums, 0, x);
  return sums;
}

describe('exact position sums', () => {
  it('equal the correctly rounded sum, in any order', () => {
    fc.assert(fc.property(fc.array(position, { minLength: 1, maxLength: 300 }), (values) => {
      const expected = exactSum(values);
      expect(sumValue(sumOf(values))).toBe(expected);
      expect(sumValue(sumOf([...values].reverse()))).toBe(expected);
      expect(meanPosition(sumOf(values), 0, values.length)).toBe(expected / values.length);
    }), { numRuns: 300 });
  });

  it('keep every bit where an f64 running sum loses some', () => {
    // 1 then many of the smallest positions of a 2^32-transaction block: the f64 loop drops them all
    const tiny = 1 / (2 ** 32 - 1);
    const values = [1, ...Array<number>(20_000).fill(tiny)];
    expect(values.reduce((s, x) => s + x, 0)).not.toBe(exactSum(values));
    expect(sumValue(sumOf(values))).toBe(exactSum(values));
  });

  it('hold 2^24 full positions without a carry', () => {
    const sums = new Float64Array(LIMBS);
    for (let i = 0; i < 2 ** 24; i++) addPosition(sums, 0, 1 - 2 ** -53);
    expect(sumValue(sums)).toBe(2 ** 24 - 2 ** -29); // exact: 53 bits from 2^23 down to 2^-29
  });

  it('take only positions', () => {
    for (const x of [0, 1, 0.5, 1 / 3, 2 ** -43]) expect(isPosition(x)).toBe(true);
    for (const x of [-0.25, 1.5, 2 ** -100, Number.NaN, Number.POSITIVE_INFINITY]) expect(isPosition(x)).toBe(false);
  });
});
