import { describe, expect, it } from 'vitest';
import { decimalAmount, ratioToNumber, tradePrice } from '../../src/schema/amounts.js';

describe('amounts', () => {
  it('takes any u8 of decimals, beyond the usual ones (10^d made exactly for d >= 40)', () => {
    for (const d of [39, 40, 77, 255]) {
      expect(decimalAmount(1n, d)).toBe(Number(`1e-${d}`)); // the nearest double to 10^-d, as JavaScript parses it
      expect(tradePrice(1n, 0, 1n, d)).toBe(Number(`1e-${d}`));
      expect(tradePrice(1n, d, 1n, 0)).toBe(Number(`1e${d}`));
    }
  });

  it('rounds num/den once, like IEEE division of exactly representable integers', () => {
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    for (let i = 0; i < 20_000; i++) {
      const a = Math.floor(next() * 2 ** 26) * 2 ** 26 + Math.floor(next() * 2 ** 26);
      const b = 1 + Math.floor(next() * 2 ** 40);
      // both below 2^53, so a / b in floating point is the correctly rounded quotient: the oracle
      expect(ratioToNumber(BigInt(a), BigInt(b))).toBe(a / b);
    }
  });

  it('keeps u64 amounts exact up to the single rounding', () => {
    expect(decimalAmount(18446744073709551615n, 9)).toBe(18446744073.709551615);
    expect(decimalAmount(1n, 9)).toBe(1e-9);
    expect(decimalAmount(0n, 6)).toBe(0);
    expect(decimalAmount(123n, 0)).toBe(123);
  });

  it('computes prices from the exact rational value', () => {
    expect(tradePrice(1n, 9, 1n, 6)).toBe(1000); // 1e-6 / 1e-9 in floats would be 999.9999999999999
    expect(tradePrice(3n, 0, 1n, 0)).toBe(1 / 3);
    // oracle: the quotient to 40 decimal places as text, parsed by Number (correctly rounded)
    const digits = ((208_538_280n * 10n ** 9n * 10n ** 40n) / (1_491_118_506n * 10n ** 6n)).toString();
    expect(tradePrice(1_491_118_506n, 9, 208_538_280n, 6)).toBe(Number(`${digits.slice(0, -40)}.${digits.slice(-40)}`));
  });
});
