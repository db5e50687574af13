/**
 * Transaction signatures as the store keeps them (the trades', each block's best fee payers'): a
 * column whose every value is at most 88 base58 digits (a Solana signature's text is 87 or 88) as
 * those digits packed 6 bits each, 66 bytes a signature against ~92 as text with its offset; any
 * other column as its text. Packed as digits, not decoded to the signature's 64 bytes: as small
 * within 3%, without base58's big-number arithmetic (which cost ~0.3 s of the hour's load on the
 * serving thread), and any such text reads back as itself.
 */
import type { Vector } from 'apache-arrow';
import { END_CODE, packDigitsUtf8, PACKED_BYTES } from '../kernels/base58.js';
import { DIGIT_CODES } from '../schema/base58.js';
import { sliceUtf8, takeUtf8, utf8At, type Utf8Values } from './utf8-values.js';

/** Signature i is packed[66i..66i + 66) (src/kernels/base58.ts `packDigitsUtf8`). */
export interface PackedSignatures {
  readonly packed: Uint8Array;
}

export type SignatureValues = PackedSignatures | Utf8Values;

const encoder = new TextEncoder();
const chars = new Uint8Array(88);
const isPacked = (values: SignatureValues): values is PackedSignatures => 'packed' in values;

/** Signatures as kept: packed when every value is at most 88 base58 digits (values packed already, as they are). */
export function keepSignatures(text: SignatureValues): SignatureValues {
  if (isPacked(text)) return text;
  const n = text.offsets.length - 1;
  const packed = new Uint8Array(n * PACKED_BYTES);
  return packDigitsUtf8(text.bytes, text.offsets, 0, n, packed) ? { packed } : text;
}

/** A non-null Utf8 column of signatures as kept (packed straight from the column's buffers). */
export function keepSignatureColumn(vector: Vector): SignatureValues {
  const packed = new Uint8Array(vector.length * PACKED_BYTES);
  let row = 0;
  for (const data of vector.data) {
    const out = packed.subarray(row * PACKED_BYTES, (row + data.length) * PACKED_BYTES);
    if (data.nullCount > 0 || !packDigitsUtf8(data.values as Uint8Array, data.valueOffsets as Int32Array, 0, data.length, out)) return takeUtf8(vector);
    row += data.length;
  }
  return { packed };
}

/** Signature i's text. */
export function signatureAt(values: SignatureValues, i: number): string {
  if (!isPacked(values)) return utf8At(values, i);
  const { packed } = values;
  let length = 0;
  for (let at = i * PACKED_BYTES, end = at + PACKED_BYTES; at < end; at += 3) {
    const group = (packed[at]! << 16) | (packed[at + 1]! << 8) | packed[at + 2]!;
    for (let shift = 18; shift >= 0; shift -= 6) {
      const code = (group >> shift) & 63;
      if (code === END_CODE) return String.fromCharCode.apply(null, chars.subarray(0, length) as unknown as number[]);
      chars[length++] = DIGIT_CODES[code]!;
    }
  }
  return String.fromCharCode.apply(null, chars as unknown as number[]);
}

/** The signatures as text (UTF-8 values). */
export function signatureText(values: SignatureValues): Utf8Values {
  if (!isPacked(values)) return values;
  const n = values.packed.length / PACKED_BYTES;
  const texts = Array.from({ length: n }, (_, i) => encoder.encode(signatureAt(values, i)));
  const offsets = new Int32Array(n + 1);
  texts.forEach((text, i) => (offsets[i + 1] = offsets[i]! + text.length));
  const bytes = new Uint8Array(offsets[n]!);
  texts.forEach((text, i) => bytes.set(text, offsets[i]!));
  return { offsets, bytes };
}

/** Signatures from..to, as values of their own (`copy`) or views. */
export function sliceSignatures(values: SignatureValues, from: number, to: number, copy: boolean): SignatureValues {
  if (!isPacked(values)) return sliceUtf8(values, from, to, copy);
  const [start, end] = [from * PACKED_BYTES, to * PACKED_BYTES];
  return { packed: copy ? values.packed.slice(start, end) : values.packed.subarray(start, end) };
}
