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

/**
 * Signatures left in their file: a Parquet file that declares its signature column required has no
 * value to check, so a load does not decode it (the largest column of a transactions file, 88
 * bytes a row, read for the few rows a block the top lists can show). Kept transaction k's is at
 * file row `rows[k]`; they are read back, all at once, when first answered (`load`), then kept.
 */
export class FileSignatures {
  #loaded: SignatureValues | undefined;
  #loading: Promise<SignatureValues> | undefined;

  constructor(
    /** Rows of the file read back, their values as kept. */
    private readonly read: (rows: Uint32Array) => Promise<SignatureValues>,
    readonly rows: Uint32Array,
  ) {}

  /** The signatures once read back. */
  get loaded(): SignatureValues | undefined {
    return this.#loaded;
  }

  /** Reads them back (once; a failed read is tried again by the next call). */
  load(): Promise<SignatureValues> {
    this.#loading ??= this.read(this.rows).then(
      (values) => (this.#loaded = values),
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading;
  }

  /** Signatures from..to (`copy`: of their own), what was read back with them. */
  slice(from: number, to: number, copy: boolean): FileSignatures {
    const part = new FileSignatures(this.read, copy ? this.rows.slice(from, to) : this.rows.subarray(from, to));
    if (this.#loaded) part.#loaded = sliceSignatures(this.#loaded, from, to, copy);
    return part;
  }
}

/** Signatures as the store keeps them: at hand, or left in their file. */
export type KeptSignatures = SignatureValues | FileSignatures;

/** The values of `signatures`, read back from their file first where they were left there. */
export const signatureValues = (signatures: KeptSignatures): Promise<SignatureValues> | SignatureValues =>
  (signatures instanceof FileSignatures ? signatures.loaded ?? signatures.load() : signatures);

const encoder = new TextEncoder();
const chars = new Uint8Array(88);
const isPacked = (values: SignatureValues): values is PackedSignatures => 'packed' in values;

/** Signatures as kept: packed when every value is at most 88 base58 digits (values packed already, or left in a file, as they are). */
export function keepSignatures<S extends KeptSignatures>(text: S): S | PackedSignatures {
  if (text instanceof FileSignatures || isPacked(text)) return text;
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

/** Signature i's text (signatures left in their file must have been read back: `signatureValues`). */
export function signatureAt(kept: KeptSignatures, i: number): string {
  const values = kept instanceof FileSignatures ? kept.loaded : kept;
  if (!values) throw new Error('signature asked before it was read back from its file');
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
export function sliceSignatures<S extends KeptSignatures>(values: S, from: number, to: number, copy: boolean): S;
export function sliceSignatures(values: KeptSignatures, from: number, to: number, copy: boolean): KeptSignatures {
  if (values instanceof FileSignatures) return values.slice(from, to, copy);
  if (!isPacked(values)) return sliceUtf8(values, from, to, copy);
  const [start, end] = [from * PACKED_BYTES, to * PACKED_BYTES];
  return { packed: copy ? values.packed.slice(start, end) : values.packed.subarray(start, end) };
}
