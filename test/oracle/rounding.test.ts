/**
 * The oracle's own rounding (rational.ts) checked against what JavaScript itself rounds exactly,
 * then the engine's ratioToNumber checked against it far above 2^53: the magnitudes at which the
 * exact sums of the market aggregates use it (counts of 2^-1074, numerators past 2^1100).
 */
import { describe, expect, it } from 'vitest';
import { ratioToNumber } from '../../src/schema/amounts.js';
import { mulberry32 } from '../helpers/prng.js';
import { exactSum, f64ToScaled, ratioToF64, SCALE, scaledToF64 } from './rational.js';

const random = mulberry32(2024);
/** A random bigint of exactly `bits` bits. */
function bigOf(bits: number): bigint {
  let x = 1n;
  for (let i = 1; i < bits; i++) x = (x << 1n) | (random() < 0.5 ? 1n : 0n);
  return x;
}

describe('the oracle rounding', () => {
  it('equals JavaScript division for operands below 2^53 (one correctly rounded IEEE division)', () => {
    for (let i = 0; i < 20_000; i++) {
      const a = Math.floor(random() * 2 ** (1 + Math.floor(random() * 53)));
      const b = 1 + Math.floor(random() * 2 ** (1 + Math.floor(random() * 52)));
      expect(ratioToF64(BigInt(a), BigInt(b))).toBe(a / b);
    }
  });

  it('rounds halfway cases to even and reaches the extremes', () => {
    const two53 = 1n << 53n;
    expect(ratioToF64(2n * two53 + 1n, 1n)).toBe(2 ** 54); // halfway between 2^54 and 2^54 + 2, even wins
    expect(ratioToF64(2n * two53 + 3n, 1n)).toBe(2 ** 54 + 4);
    expect(ratioToF64(2n * two53 + 3n, 2n)).toBe(2 ** 53 + 2); // (2^54 + 3) / 2 = 2^53 + 1.5, halfway, even up
    expect(ratioToF64(1n, 1n << 1074n)).toBe(Number.MIN_VALUE);
    expect(ratioToF64(1n, 1n << 1075n)).toBe(0); // exactly half the least subnormal: even (zero)
    expect(ratioToF64(3n, 1n << 1076n)).toBe(Number.MIN_VALUE);
    expect(ratioToF64((1n << 1024n) - (1n << 970n), 1n)).toBe(Infinity);
    expect(ratioToF64((1n << 1024n) - (1n << 971n), 1n)).toBe(Number.MAX_VALUE);
  });

  it('reads every float back exactly from its count of 2^-1074', () => {
    for (const x of [0, Number.MIN_VALUE, 2 ** -1022, 0.1, 1, 1 / 3, 2 ** 53 + 2, 1e300, Number.MAX_VALUE]) {
      expect(scaledToF64(f64ToScaled(x))).toBe(x);
    }
    expect(exactSum([0.1, 0.2])).toBe(0.30000000000000004); // the exact sum of the two floats, rounded once
    expect(exactSum([1e16, 1, 1])).toBe(1e16 + 2);
  });
});

describe('the engine ratioToNumber against the oracle rounding', () => {
  it('agrees for numerators and denominators of 54 to 1200 bits', () => {
    for (let i = 0; i < 3000; i++) {
      const num = bigOf(54 + Math.floor(random() * 1146));
      const den = bigOf(54 + Math.floor(random() * 1146));
      // keep the quotient in the normal range
      if (num.toString(2).length - den.toString(2).length > 1000 || den.toString(2).length - num.toString(2).length > 1000) continue;
      expect(ratioToNumber(num, den), `${num} / ${den}`).toBe(ratioToF64(num, den));
    }
  });

  it('agrees around 2^53 and around powers of two, where a bit length read from a double is off by one', () => {
    const near = (k: number) => [-1n, 0n, 1n].map((d) => (1n << BigInt(k)) + d);
    for (let kn = 48; kn <= 70; kn++) {
      for (let kd = 1; kd <= 70; kd += 3) {
        for (const num of near(kn)) for (const den of near(kd)) {
          if (den <= 0n) continue;
          expect(ratioToNumber(num, den), `${num} / ${den}`).toBe(ratioToF64(num, den));
          expect(ratioToNumber(num * 3n + 1n, den), `${num * 3n + 1n} / ${den}`).toBe(ratioToF64(num * 3n + 1n, den));
        }
      }
    }
  });

  it('agrees on exact sums at the scale 2^1074 and on halfway cases', () => {
    for (let i = 0; i < 3000; i++) {
      const values = Array.from({ length: 1 + Math.floor(random() * 8) }, () => random() * 10 ** Math.floor(random() * 30 - 10));
      const total = values.reduce((s, v) => s + f64ToScaled(v), 0n);
      expect(ratioToNumber(total, SCALE)).toBe(scaledToF64(total));
    }
    for (let k = 54; k < 1100; k += 37) {
      const halfway = ((1n << 53n) + 1n) << BigInt(k - 53); // exactly between two floats: ties to even
      expect(ratioToNumber(halfway, 1n << BigInt(k - 53))).toBe(ratioToF64(halfway, 1n << BigInt(k - 53)));
      expect(ratioToNumber(halfway + 1n, 2n)).toBe(ratioToF64(halfway + 1n, 2n));
    }
  });
});
