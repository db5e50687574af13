/**
 * Text copied out of Arrow string columns (src/ingest/utf8-values.ts) against apache-arrow's own
 * getter: whole columns and chosen rows, of sliced columns in several chunks (a chunk's table is
 * slices of the batches it was cut from), multi-byte characters included.
 */
import { Utf8, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sliceUtf8, takeUtf8, utf8At, type Utf8Values } from '../../src/ingest/utf8-values.js';

const texts = (values: Utf8Values, n: number) => Array.from({ length: n }, (_, i) => utf8At(values, i));
const chunked = fc.array(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 4 });

describe('takeUtf8', () => {
  it('copies every row, or the rows asked for in their order, of sliced multi-chunk columns', () => {
    fc.assert(fc.property(chunked, fc.nat(), fc.array(fc.nat(), { maxLength: 30 }), (chunks, cut, picks) => {
      const parts = chunks.map((strings) => vectorFromArray(strings, new Utf8()));
      const whole = parts.slice(1).reduce((a, b) => a.concat(b), parts[0]!);
      const vector = whole.slice(cut % whole.length); // its first chunk's offsets start past 0
      const expected = Array.from({ length: vector.length }, (_, i) => vector.get(i) as string);
      expect(texts(takeUtf8(vector), vector.length)).toEqual(expected);
      const rows = Uint32Array.from(picks, (p) => p % vector.length);
      expect(texts(takeUtf8(vector, rows), rows.length)).toEqual(Array.from(rows, (i) => expected[i]));
    }));
  });

  it('keeps nothing of its input: the bytes are a buffer of their own, just the size of the text', () => {
    const vector = vectorFromArray(['abc', 'd', 'éf'], new Utf8());
    const taken = takeUtf8(vector.slice(1));
    expect(taken.bytes.buffer).not.toBe((vector.data[0]!.values as Uint8Array).buffer);
    expect(taken.bytes.byteLength).toBe(new TextEncoder().encode('déf').length);
    expect(texts(sliceUtf8(taken, 1, 2, true), 1)).toEqual(['éf']);
  });
});
