/**
 * u64 columns read as pairs of 32-bit words. Reading a BigUint64Array element makes a BigInt (a
 * heap object in V8): a loop over every row of a chunk (millions a load) that only compares or
 * copies them made as many objects for the collector. The words compare and copy exactly with none.
 */
import type { Vector } from 'apache-arrow';

/** Index of the high and low 32-bit word of a u64 in a Uint32Array view (platform byte order). */
export const [HIGH, LOW] = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? [1, 0] : [0, 1];

/** The 64-bit values of `array` as 32-bit words (a view: no copy). */
export const wordsOf = (array: BigUint64Array | BigInt64Array): Uint32Array =>
  new Uint32Array(array.buffer, array.byteOffset, array.length * 2);

/** Whether u64s i and j of `words` are equal. */
export const sameU64 = (words: Uint32Array, i: number, j: number): boolean =>
  words[2 * i] === words[2 * j] && words[2 * i + 1] === words[2 * j + 1];

/** Sign of u64 i - u64 j (unsigned): a difference of words is an exact double. */
export const compareU64 = (words: Uint32Array, i: number, j: number): number =>
  words[2 * i + HIGH]! - words[2 * j + HIGH]! || words[2 * i + LOW]! - words[2 * j + LOW]!;

/**
 * Whether the u64s of `words` (a column's 32-bit words, wordsOf) never decrease, the first not below
 * the u64 of words `high`, `low` (-1 for none). A loop of its own: inlined in an async function
 * (the decoder's slot check) it ran at ~11 ns a value.
 */
export function wordsAscending(words: Uint32Array, high = -1, low = -1): boolean {
  const [h, l] = [HIGH, LOW];
  for (let i = 0; i < words.length; i += 2) {
    const nextHigh = words[i + h]!;
    const nextLow = words[i + l]!;
    if (nextHigh < high || (nextHigh === high && nextLow < low)) return false;
    high = nextHigh;
    low = nextLow;
  }
  return true;
}

/** Values `sumU64` adds up in doubles before it makes a BigInt. */
const SUM_RUN = 1 << 21;

/** The exact sum of u64 `values`, word by word: one BigInt per 2^21 values, not one a value. */
export function sumU64(values: BigUint64Array): bigint {
  const words = wordsOf(values);
  let sum = 0n;
  for (let from = 0; from < values.length; from += SUM_RUN) {
    // each word is below 2^32, so 2^21 of them add up exactly in a double
    let high = 0;
    let low = 0;
    for (let i = from, end = Math.min(values.length, from + SUM_RUN); i < end; i++) {
      high += words[2 * i + HIGH]!;
      low += words[2 * i + LOW]!;
    }
    sum += (BigInt(high) << 32n) + BigInt(low);
  }
  return sum;
}

/** values[order[k]] for every k, copied word by word (u64 or i64 alike: the same 64 bits). */
export function gatherU64<T extends BigUint64Array | BigInt64Array>(values: T, order: Uint32Array): T {
  const out = new (values.constructor as new (length: number) => T)(order.length);
  const from = wordsOf(values);
  const to = wordsOf(out);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    to[2 * k] = from[2 * i]!;
    to[2 * k + 1] = from[2 * i + 1]!;
  }
  return out;
}

/**
 * values[order[k]] for every k, in an array of the same type. A plain loop: `TypedArray.from(order,
 * fn)` goes through the iterator protocol and costs ~100 ns an element in V8, `order.map(fn)` ~10.
 */
export function gather<A extends Uint8Array | Uint16Array | Uint32Array>(values: A, order: Uint32Array): A {
  const out = new (values.constructor as new (length: number) => A)(order.length);
  for (let k = 0; k < order.length; k++) out[k] = values[order[k]!]!;
  return out;
}

/** A non-null Bool column's values as bytes (1 or 0), read from its bitmaps, in `order` when given. */
export function boolBytes(vector: Vector, order?: Uint32Array): Uint8Array {
  const n = vector.length;
  const flat = new Uint8Array(n);
  let at = 0;
  for (const data of vector.data) {
    const bits = data.values as Uint8Array;
    for (let i = 0; i < data.length; i++, at++) {
      const bit = data.offset + i;
      flat[at] = (bits[bit >> 3]! >> (bit & 7)) & 1;
    }
  }
  if (!order) return flat;
  const out = new Uint8Array(order.length);
  for (let k = 0; k < order.length; k++) out[k] = flat[order[k]!]!;
  return out;
}
