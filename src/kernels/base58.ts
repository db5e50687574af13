/**
 * The base58 passes over a whole string column (assembly/base58), on its UTF-8 bytes:
 * - the public-key check: whether every value is the base58 text of 32 bytes (exactly the strings
 *   `isPublicKey` accepts), without decoding. The vectorized path of ingest runs it on every key
 *   column of every batch (a load's signers, programs, mints and write-locked accounts: about 100
 *   bytes a transaction); as JavaScript, a byte at a time, it was a tenth of the serving thread's load.
 * - the packing of digits: every value's base58 digits 6 bits each, how the store keeps signatures
 *   (src/ingest/signature-values.ts).
 */
import { encodeBase58 } from '../schema/base58.js';
import { checkStatus } from './instance.js';
import { copyStrings, type StringInputKernel } from './string-input.js';
import { wasmBytes } from './base58.wasm.generated.js';

/** The raw exports of build/base58.wasm. */
interface Base58Exports extends StringInputKernel {
  skipPtr(): number;
  boundsPtr(): number;
  boundLengthsPtr(): number;
  boundBytes(): number;
  allPublicKeys(n: number, skips: number): number;
  reservePacked(n: number): number;
  packedPtr(): number;
  packDigits(n: number): number;
}

/** Values checked per call: bounds the module's memory (its high-water mark) to a few MB. */
const BATCH = 1 << 16;

let instance: Base58Exports | undefined;

/** The module, its bounds written: the base58 digits of 256^(m-1) and 256^m - 1 for m = 1..32 bytes. */
function kernel(): Base58Exports {
  if (instance) return instance;
  const k = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes()), {}).exports as unknown as Base58Exports;
  const digits = (bytes: Uint8Array) => Uint8Array.from(encodeBase58(bytes), (c) => c.charCodeAt(0));
  const lengths = new Uint32Array(k.memory.buffer, k.boundLengthsPtr(), 33 * 2);
  for (let m = 1; m <= 32; m++) {
    const low = new Uint8Array(m);
    low[0] = 1;
    const bounds = [digits(low), digits(new Uint8Array(m).fill(255))];
    bounds.forEach((bound, j) => {
      new Uint8Array(k.memory.buffer, k.boundsPtr() + (m * 2 + j) * k.boundBytes(), bound.length).set(bound);
      lengths[m * 2 + j] = bound.length;
    });
  }
  return (instance = k);
}

/**
 * Whether values from..to of a string column (its value bytes and offsets) are all public keys,
 * skipping those `skip` names (nulls). Every byte the values span must be a base58 digit, a
 * skipped value's too (a null's are normally none).
 */
export function allPublicKeysUtf8(
  bytes: Uint8Array, offsets: Int32Array, from: number, to: number, skip?: (i: number) => boolean,
): boolean {
  const k = kernel();
  for (let at = from; at < to; at += BATCH) {
    const end = Math.min(to, at + BATCH);
    copyStrings('base58', k, bytes, offsets, at, end);
    if (skip) {
      const skips = new Uint8Array(k.memory.buffer, k.skipPtr(), end - at);
      for (let i = at; i < end; i++) skips[i - at] = skip(i) ? 1 : 0;
    }
    if (k.allPublicKeys(end - at, skip ? 1 : 0) === 0) return false;
  }
  return true;
}

/** Bytes of a value packed by `packDigitsUtf8`: 88 digits, 6 bits each. */
export const PACKED_BYTES = 66;
/** The code of a place past a packed value's end. */
export const END_CODE = 63;
/** Values packed per call: ~0.7 MB of text, so that packing does not grow the module's memory past the key checks'. */
const PACK_BATCH = 1 << 13;

/**
 * Values from..to of a string column (its value bytes and offsets), each at most 88 base58 digits,
 * packed into `out`, PACKED_BYTES each one after another: its digits' values 6 bits each, four to
 * three bytes, the first in the high bits, END_CODE past its end. False when a value is not such
 * (`out` then incomplete).
 */
export function packDigitsUtf8(bytes: Uint8Array, offsets: Int32Array, from: number, to: number, out: Uint8Array): boolean {
  const k = kernel();
  for (let at = from; at < to; at += PACK_BATCH) {
    const end = Math.min(to, at + PACK_BATCH);
    copyStrings('base58', k, bytes, offsets, at, end);
    checkStatus('base58.reservePacked', k.reservePacked(end - at));
    if (k.packDigits(end - at) === 0) return false;
    out.set(new Uint8Array(k.memory.buffer, k.packedPtr(), (end - at) * PACKED_BYTES), (at - from) * PACKED_BYTES);
  }
  return true;
}
