/**
 * u64 columns as 32-bit words (src/schema/u64-words.ts) against BigInt arithmetic, and Bool
 * columns read from their bitmaps against apache-arrow's own getter, sliced and in several chunks.
 */
import { makeVector, Bool, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolBytes, compareU64, gather, gatherU64, sameU64, sumU64, wordsOf } from '../../src/schema/u64-words.js';

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
// values near each other and at the word boundaries, so that ties and one-word differences come up
const near = fc.constantFrom(0n, 1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n);
const values = fc.array(fc.oneof(u64, near), { minLength: 1, maxLength: 60 });

describe('u64 words', () => {
  it('sum exactly as BigInts do, subarrays and past one run of 2^21 values included', () => {
    fc.assert(fc.property(values, fc.nat(5), (list, skip) => {
      const array = BigUint64Array.from(list).subarray(Math.min(skip, list.length));
      expect(sumU64(array)).toBe(array.reduce((s, x) => s + x, 0n));
    }));
    const many = new BigUint64Array((1 << 21) + 3).fill(2n ** 64n - 1n);
    expect(sumU64(many)).toBe(BigInt(many.length) * (2n ** 64n - 1n));
  });

  it('compare, test equality and gather exactly as BigInts do', () => {
    fc.assert(fc.property(values, (list) => {
      const array = BigUint64Array.from(list);
      const words = wordsOf(array);
      for (let i = 0; i < list.length; i++) {
        for (let j = 0; j < list.length; j++) {
          expect(Math.sign(compareU64(words, i, j))).toBe(list[i]! < list[j]! ? -1 : list[i]! > list[j]! ? 1 : 0);
          expect(sameU64(words, i, j)).toBe(list[i] === list[j]);
        }
      }
      const order = Uint32Array.from(list.map((_, i) => list.length - 1 - i));
      expect(Array.from(gatherU64(array, order))).toEqual([...list].reverse());
    }));
  });

  it('gather 8-, 16- and 32-bit columns as indexing does, in the same type', () => {
    fc.assert(fc.property(fc.array(fc.nat(2 ** 32 - 1), { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 40 }), (list, picks) => {
      const order = Uint32Array.from(picks, (p) => p % list.length);
      for (const array of [Uint8Array.from(list), Uint16Array.from(list), Uint32Array.from(list)]) {
        const out = gather(array, order);
        expect(out.constructor).toBe(array.constructor);
        expect(Array.from(out)).toEqual(Array.from(order, (i) => array[i]));
      }
    }));
  });

  it('read a view that starts inside its buffer', () => {
    const backing = BigUint64Array.from([7n, 2n ** 64n - 1n, 5n]);
    const view = backing.subarray(1);
    expect(compareU64(wordsOf(view), 0, 1)).toBeGreaterThan(0);
    expect(Array.from(gatherU64(view, Uint32Array.from([1, 0])))).toEqual([5n, 2n ** 64n - 1n]);
  });
});

describe('boolBytes', () => {
  it('reads the bitmaps of sliced, multi-chunk Bool columns as the getter does', () => {
    fc.assert(fc.property(fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }), fc.nat(), (chunks, cut) => {
      const parts = chunks.map((bits) => vectorFromArray(bits, new Bool()));
      const whole = parts.slice(1).reduce((a, b) => a.concat(b), parts[0]!);
      const from = cut % whole.length;
      const vector = whole.slice(from); // a slice: its data starts at a bit offset
      const expected = Array.from({ length: vector.length }, (_, i) => (vector.get(i) ? 1 : 0));
      expect(Array.from(boolBytes(vector))).toEqual(expected);
      const order = Uint32Array.from(expected.map((_, i) => expected.length - 1 - i));
      expect(Array.from(boolBytes(vector, order))).toEqual([...expected].reverse());
    }));
    expect(Array.from(boolBytes(makeVector({ type: new Bool(), length: 3, data: new Uint8Array([0b101]) } as never)))).toEqual([1, 0, 1]);
  });
});
