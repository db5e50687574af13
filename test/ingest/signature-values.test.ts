/**
 * Signatures as the store keeps them (src/ingest/signature-values.ts, the kernel's packing in
 * assembly/base58) against a plain packing written here: a column packs exactly when every value is
 * at most 88 base58 digits, to its digits 6 bits each, and every value reads back as its text,
 * packed or not.
 */
import { Utf8, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepSignatureColumn, keepSignatures, signatureAt, sliceSignatures, type SignatureValues } from '../../src/ingest/signature-values.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** base58 of `bytes`: a '1' per leading zero byte, then the number's digits. */
function encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = bytes.reduce((acc, b) => acc * 256n + BigInt(b), 0n);
  let digits = '';
  while (n > 0n) {
    digits = ALPHABET[Number(n % 58n)] + digits;
    n /= 58n;
  }
  return '1'.repeat(zeros) + digits;
}

/** The digits of `text` 6 bits each, 63 past its end, four to three bytes (null where it is not such). */
function pack(text: string): number[] | null {
  if (text.length > 88 || [...text].some((c) => !ALPHABET.includes(c))) return null;
  const codes = Array.from({ length: 88 }, (_, i) => (i < text.length ? ALPHABET.indexOf(text[i]!) : 63));
  const bits = codes.map((c) => c.toString(2).padStart(6, '0')).join('');
  return Array.from({ length: 66 }, (_, i) => parseInt(bits.slice(8 * i, 8 * i + 8), 2));
}

const utf8 = (texts: readonly string[]) => {
  const encoded = texts.map((t) => new TextEncoder().encode(t));
  const offsets = new Int32Array(texts.length + 1);
  encoded.forEach((e, i) => (offsets[i + 1] = offsets[i]! + e.length));
  const bytes = new Uint8Array(offsets[texts.length]!);
  encoded.forEach((e, i) => bytes.set(e, offsets[i]!));
  return { offsets, bytes };
};
const read = (values: SignatureValues, n: number) => Array.from({ length: n }, (_, i) => signatureAt(values, i));
const packs = (text: string) => pack(text) !== null;

/** 64 bytes, often with leading zero bytes (each a leading '1'), sometimes all zero or all 255. */
const signatureBytes = fc.oneof(
  fc.uint8Array({ minLength: 64, maxLength: 64 }),
  fc.tuple(fc.integer({ min: 1, max: 64 }), fc.uint8Array({ minLength: 64, maxLength: 64 })).map(([zeros, b]) => b.fill(0, 0, zeros)),
  fc.constant(new Uint8Array(64).fill(255)),
  fc.constant(Uint8Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0))),
);
/** Text around the edges: other lengths, characters that are not digits (ASCII and not). */
const nearMiss = fc.oneof(
  fc.uint8Array({ minLength: 60, maxLength: 68 }).map(encode),
  fc.tuple(signatureBytes, fc.nat(), fc.constantFrom('0', 'O', 'I', 'l', '+', 'é', ' ')).map(([b, at, c]) => {
    const text = encode(b);
    const i = at % text.length;
    return text.slice(0, i) + c + text.slice(i + 1);
  }),
  signatureBytes.map((b) => `1${encode(b)}`),
  signatureBytes.map((b) => encode(b).slice(1)),
  fc.string({ maxLength: 90 }),
  fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{85,92}$/),
);

describe('keepSignatures', () => {
  it('packs a column of signatures to their digits, and reads each back as its text', () => {
    fc.assert(fc.property(fc.array(signatureBytes, { minLength: 1, maxLength: 40 }), (signatures) => {
      const texts = signatures.map(encode);
      const kept = keepSignatures(utf8(texts));
      expect('packed' in kept).toBe(true);
      expect([...(kept as { packed: Uint8Array }).packed]).toEqual(texts.flatMap((t) => pack(t)!));
      expect(read(kept, texts.length)).toEqual(texts);
    }));
  });

  it('keeps the text of a column with any value that is not at most 88 digits, and reads each back unchanged', () => {
    fc.assert(fc.property(fc.array(fc.oneof(signatureBytes.map(encode), nearMiss), { minLength: 1, maxLength: 30 }), (texts) => {
      const kept = keepSignatures(utf8(texts));
      expect('packed' in kept).toBe(texts.every(packs));
      expect(read(kept, texts.length)).toEqual(texts);
    }));
  });

  it('packs up to 88 digits, the empty text too, and refuses past them', () => {
    const packed = (text: string) => 'packed' in keepSignatures(utf8([text]));
    expect(packed(encode(new Uint8Array(64).fill(255)))).toBe(true); // 88 digits
    expect(packed('z'.repeat(89))).toBe(false);
    expect(packed('1'.repeat(64))).toBe(true);
    expect(packed('')).toBe(true);
    expect(read(keepSignatures(utf8(['', '1', 'z'.repeat(88)])), 3)).toEqual(['', '1', 'z'.repeat(88)]);
    expect(packed('abc\u0000')).toBe(false);
    expect(packed('0')).toBe(false);
  });

  it('packs more signatures than the kernel takes a call, and slices them', () => {
    const signatures = Array.from({ length: 20_000 }, (_, i) => Uint8Array.from({ length: 64 }, (_, j) => (i * 31 + j * 7) & 255));
    const texts = signatures.map(encode);
    const kept = keepSignatures(utf8(texts));
    expect('packed' in kept).toBe(true);
    expect(read(kept, texts.length)).toEqual(texts);
    expect(read(sliceSignatures(kept, 8_000, 12_000, true), 4_000)).toEqual(texts.slice(8_000, 12_000));
    expect(read(sliceSignatures(keepSignatures(utf8(['x', 'é', 'y'])), 1, 3, false), 2)).toEqual(['é', 'y']);
  });
});

describe('keepSignatureColumn', () => {
  it('packs a sliced Arrow column of several chunks, and keeps the text of one with a null', () => {
    const texts = Array.from({ length: 30 }, (_, i) => encode(Uint8Array.from({ length: 64 }, (_, j) => (i + 1) * (j + 3) & 255)));
    const parts = [texts.slice(0, 10), texts.slice(10, 25), texts.slice(25)].map((t) => vectorFromArray(t, new Utf8()));
    const vector = parts[0]!.concat(parts[1]!).concat(parts[2]!).slice(3);
    const kept = keepSignatureColumn(vector);
    expect('packed' in kept).toBe(true);
    expect(read(kept, vector.length)).toEqual(texts.slice(3));
    const withNull = vectorFromArray([texts[0]!, null, texts[1]!], new Utf8());
    expect('packed' in keepSignatureColumn(withNull)).toBe(false);
  });
});
