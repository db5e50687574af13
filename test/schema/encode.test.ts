import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeDuration, encodeFloat32, encodeFloat64, encodeInteger, encodeRecord, encodeTimestamp,
} from '../../src/schema/encode.js';
import { recordId } from '../../src/schema/ids.js';
import { BlockFees, RECORDS, Trade, WindowFees } from '../../src/schema/records.js';
import { parseTimeParam } from '../../src/schema/time.js';

describe('number encoding', () => {
  it('keeps u64 above 2^53 exact', () => {
    expect(encodeInteger(2n ** 53n + 1n)).toBe('9007199254740993');
    expect(encodeInteger(2n ** 64n - 1n)).toBe('18446744073709551615');
    expect(() => encodeInteger(2 ** 53 + 2)).toThrow(/exact/);
  });

  it('writes floats as the shortest round-trip decimal, never in exponent form', () => {
    const cases: [number, string][] = [
      [0.1, '0.1'], [1e-7, '0.0000001'], [1.5e-7, '0.00000015'], [2.5e-10, '0.00000000025'],
      [123.456, '123.456'], [1e21, '1000000000000000000000'], [1.2345e22, '12345000000000000000000'],
      [-3.2e-8, '-0.000000032'], [-0, '0'], [5e-324, `0.${'0'.repeat(323)}5`],
    ];
    for (const [value, text] of cases) {
      expect(encodeFloat64(value)).toBe(text);
      expect(Number(encodeFloat64(value))).toBe(value === 0 ? 0 : value);
    }
  });

  it('round-trips random floats exactly', () => {
    let seed = 12345;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 10_000; i++) {
      const value = (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
      const text = encodeFloat64(value)!;
      expect(text).not.toMatch(/e/i);
      expect(Number(text)).toBe(value);
    }
  });

  it('writes Float4 as the shortest decimal of the float32', () => {
    expect(encodeFloat32(0.1)).toBe('0.1');
    expect(encodeFloat32(37.5)).toBe('37.5');
    expect(encodeFloat32(1 / 3)).toBe('0.33333334');
    expect(encodeFloat32(1e-7)).toBe('0.0000001');
  });

  it('Float4: the fewest significant digits that round-trip, as counting up from one digit finds them', () => {
    const counted = (f: number) => {
      for (let p = 1; ; p++) if (Math.fround(Number(f.toPrecision(p))) === f) return Number(f.toPrecision(p));
    };
    fc.assert(fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (value) => {
      const f = Math.fround(value);
      fc.pre(f !== 0);
      expect(Number(encodeFloat32(f))).toBe(counted(f));
    }), { numRuns: 20_000 });
  });

  it('never writes NaN or Infinity: null instead', () => {
    for (const v of [NaN, Infinity, -Infinity, null]) {
      expect(encodeFloat64(v)).toBeNull();
      expect(encodeFloat32(v)).toBeNull();
    }
    expect(encodeFloat32(1e39)).toBeNull(); // overflows float32
  });
});

describe('timestamps and durations', () => {
  it('writes ISO-8601 UTC with 9 fraction digits', () => {
    expect(encodeTimestamp(1710441678n * 1_000_000_000n)).toBe('2024-03-14T18:41:18.000000000Z');
    expect(encodeTimestamp(1710441678_123456789n)).toBe('2024-03-14T18:41:18.123456789Z');
    expect(encodeTimestamp(0n)).toBe('1970-01-01T00:00:00.000000000Z');
    expect(encodeTimestamp(-1n)).toBe('1969-12-31T23:59:59.999999999Z');
  });

  it('parses what it writes', () => {
    for (const ns of [0n, 1710441678_123456789n, 1755872986_000000001n]) {
      expect(parseTimeParam(encodeTimestamp(ns))).toBe(ns);
    }
    expect(parseTimeParam(1710441678)).toBe(1710441678_000000000n);
    expect(parseTimeParam('1710441678.5')).toBe(1710441678_500000000n);
    expect(parseTimeParam('2024-03-14T19:41:18+01:00')).toBe(1710441678_000000000n);
    expect(parseTimeParam('2024-02-30T00:00:00Z')).toBeUndefined();
  });

  it('writes ISO-8601 durations without folding hours into days', () => {
    const s = 1_000_000_000n;
    expect(encodeDuration(300n * s)).toBe('PT5M');
    expect(encodeDuration(24n * 3600n * s)).toBe('PT24H');
    expect(encodeDuration(3_841_000n)).toBe('PT0.003841S');
    expect(encodeDuration(0n)).toBe('PT0S');
    expect(encodeDuration(3600n * s + 90n * s + 500_000_000n)).toBe('PT1H1M30.5S');
    expect(encodeDuration(1n)).toBe('PT0.000000001S');
  });
});

describe('records', () => {
  it('defines the twelve records with the seed field counts', () => {
    expect(RECORDS).toHaveLength(12);
    // 15 scalar fields + 4 families x 30 suffixes + 9 position_at_fee fields
    expect(BlockFees.fields).toHaveLength(15 + 120 + 9);
    expect(WindowFees.fields).toHaveLength(11 + 120 + 1 + 9);
    expect(BlockFees.fields.map(([n]) => n)).toContain('position_p99_999');
  });

  it('encodes a record in schema order and refuses a missing field', () => {
    const trade = {
      id: recordId('trade', 'sig', 0), signature: 'sig', signer: 'me', slot: 2n ** 60n, timestamp: 1710441678_000000001n,
      base: 'b', quote: 'q', base_amount: 2n ** 64n - 1n, quote_amount: 5n, base_decimals: 9, quote_decimals: 6,
      base_volume: 1e-9, quote_volume: 0.000005, price: 5e-7, is_buy: true,
    };
    const wire = encodeRecord(Trade, trade);
    expect(Object.keys(wire)).toEqual(Trade.fields.map(([n]) => n));
    expect(wire).toMatchObject({
      slot: '1152921504606846976', base_amount: '18446744073709551615', timestamp: '2024-03-14T18:41:18.000000001Z',
      base_volume: '0.000000001', price: '0.0000005', is_buy: true, base_decimals: '9',
    });
    const { price: _, ...missing } = trade;
    expect(() => encodeRecord(Trade, missing as typeof trade)).toThrow(/Trade.price/);
    // a field the wire types as never null (NEVER_NULL_FIELDS) is refused as null; another is written as null
    expect(() => encodeRecord(Trade, { ...trade, slot: null } as never)).toThrow(/Trade.slot is null/);
    expect(encodeRecord(Trade, { ...trade, price: null } as never).price).toBeNull();
  });

  it('derives stable ids below 2^53', () => {
    const id = recordId('chain::market::ohlcv', 'base', 'quote', '1m', 1_700_000_000_000_000_000n);
    expect(id).toBe(recordId('chain::market::ohlcv', 'base', 'quote', '1m', 1_700_000_000_000_000_000n));
    expect(Number.isSafeInteger(id) && id >= 0).toBe(true);
    expect(id).not.toBe(recordId('chain::market::ohlcv', 'base', 'quote', '5m', 1_700_000_000_000_000_000n));
  });
});
