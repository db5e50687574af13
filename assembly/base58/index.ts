import { align16 as align, growTo } from '../grow';
import { Status } from '../status';

export { Status } from '../status';

/**
 * Two passes over a batch of base58 strings. `allPublicKeys`: whether every value of a string column
 * is a base58 public key (src/kernels/base58.ts, `allPublicKeysUtf8`), without decoding: the digits
 * are checked 16 bytes at a time over all the bytes the values span; then each value's length, and
 * its number (after the leading '1's, which stand for zero bytes) against the smallest and largest
 * number of the bytes left, compared as digit strings (the alphabet is in ASCII order).
 *
 * Input, for n values: bytes | offsets u32[n + 1] (value i is bytes[offsets[i]..offsets[i + 1])) |
 * skip u8[n] (1: not checked, a null). BOUNDS holds, for m = 1..32 bytes, the base58 digits of
 * 256^(m-1) and 256^m - 1, written once by the caller. `packDigits`: every value's digits packed,
 * 6 bits each (src/kernels/base58.ts, `packDigitsUtf8`: how signatures are kept).
 */

const BOUND_BYTES: i32 = 48;
/** Per m: the low bound's digits, then the high bound's, BOUND_BYTES each. */
const BOUNDS = memory.data(<i32>(33 * 2 * BOUND_BYTES), 16);
/** Per m: the low and the high bound's length, u32 each. */
const BOUND_LENGTHS = memory.data(33 * 2 * 4, 16);
/** A base58 digit's byte sets a bit of LOW_BITS[low nibble] and of HIGH_BITS[high nibble] in common. */
const LOW_BITS = memory.data<u8>([20, 31, 31, 31, 31, 31, 31, 31, 31, 29, 30, 10, 2, 10, 10, 8]);
const HIGH_BITS = memory.data<u8>([0, 0, 0, 1, 2, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0]);

let base: usize = 0;
let byteCapacity: usize = 0;
let valueCapacity: usize = 0;
let bytesAt: usize = 0;
let offsetsAt: usize = 0;
let skipAt: usize = 0;

/** Makes room for `n` values of `bytes` bytes in all. Growing detaches every JS view of the memory. */
export function reserve(bytes: u32, n: u32): Status {
  if (base == 0) base = align(<usize>__heap_base);
  if (<usize>bytes <= byteCapacity && <usize>n <= valueCapacity) return Status.OK;
  const nb = max(<usize>bytes, byteCapacity + (byteCapacity >> 1));
  const nv = max(<usize>n, valueCapacity + (valueCapacity >> 1));
  const o = align(base + nb);
  const s = align(o + (nv + 1) * 4);
  if (!growTo(<u64>(s + nv))) return Status.OUT_OF_MEMORY;
  byteCapacity = nb;
  valueCapacity = nv;
  bytesAt = base;
  offsetsAt = o;
  skipAt = s;
  return Status.OK;
}

export function bytesPtr(): usize { return bytesAt; }
export function offsetsPtr(): usize { return offsetsAt; }
export function skipPtr(): usize { return skipAt; }
export function boundsPtr(): usize { return BOUNDS; }
export function boundLengthsPtr(): usize { return BOUND_LENGTHS; }
export function boundBytes(): i32 { return BOUND_BYTES; }

/** Whether bytes [0, end) are all base58 digits. */
function allDigits(end: usize): bool {
  const lowBits = v128.load(LOW_BITS);
  const highBits = v128.load(HIGH_BITS);
  const nibble = i8x16.splat(0x0f);
  const zero = i8x16.splat(0);
  let bad = zero;
  let i: usize = 0;
  for (; i + 16 <= end; i += 16) {
    const v = v128.load(bytesAt + i);
    const both = v128.and(i8x16.swizzle(lowBits, v128.and(v, nibble)), i8x16.swizzle(highBits, i8x16.shr_u(v, 4)));
    bad = v128.or(bad, i8x16.eq(both, zero));
  }
  if (v128.any_true(bad)) return false;
  for (; i < end; i++) {
    const b = load<u8>(bytesAt + i);
    if ((load<u8>(LOW_BITS + (b & 15)) & load<u8>(HIGH_BITS + (b >> 4))) == 0) return false;
  }
  return true;
}

/** Compares digits [p, p + n) with the bound at `at` of `length` digits, as numbers. */
@inline function compareDigits(p: usize, n: usize, at: usize, length: usize): i32 {
  if (n != length) return n < length ? -1 : 1;
  for (let i: usize = 0; i < n; i++) {
    const d = <i32>load<u8>(p + i) - <i32>load<u8>(at + i);
    if (d != 0) return d;
  }
  return 0;
}

/** For base58 digits [p, p + len): whether they are a public key (its length, then its range after the leading '1's). */
function inRange(p: usize, len: usize): bool {
  if (len < 32 || len > 44) return false;
  let digits: usize = 0;
  while (digits < len && load<u8>(p + digits) == 49) digits++;
  if (digits > 32) return false;
  const m: usize = 32 - digits; // bytes the number after the leading zeros must take
  if (m == 0) return digits == len;
  const low = BOUNDS + m * 2 * <usize>BOUND_BYTES;
  const high = low + <usize>BOUND_BYTES;
  const lowLength = <usize>load<u32>(BOUND_LENGTHS + m * 8);
  const highLength = <usize>load<u32>(BOUND_LENGTHS + m * 8 + 4);
  const n = len - digits;
  return compareDigits(p + digits, n, low, lowLength) >= 0 && compareDigits(p + digits, n, high, highLength) <= 0;
}

/**
 * 1 when every value not skipped (`skips`: whether the skip bytes were written) is a public key
 * and every byte the values span is a base58 digit, else 0.
 */
export function allPublicKeys(n: u32, skips: bool): u32 {
  if (<usize>n > valueCapacity) return 0;
  if (!allDigits(<usize>load<u32>(offsetsAt + (<usize>n << 2)))) return 0;
  for (let i: usize = 0; i < <usize>n; i++) {
    if (skips && load<u8>(skipAt + i) != 0) continue;
    const from = <usize>load<u32>(offsetsAt + (i << 2));
    const to = <usize>load<u32>(offsetsAt + ((i + 1) << 2));
    if (!inRange(bytesAt + from, to - from)) return 0;
  }
  return 1;
}

/** Digits a packed value holds at most: a 64-byte signature's base58 text is 64 to 88 digits. */
const PACKED_DIGITS: usize = 88;
/** Its bytes: 6 bits a digit. */
const PACKED_BYTES: usize = PACKED_DIGITS * 6 / 8;
/** The code of a place past the value's end (a digit's is its value, 0..57). */
const END_CODE: u8 = 63;
/** A byte's code: its digit value, END_CODE for 0 (the padding of SCRATCH); bytes that are not digits never get here. */
const CODES = memory.data(256, 16);
/** The alphabet 1-9 A-H J-N P-Z a-k m-z, as runs of consecutive bytes: from, to (inclusive). */
const ALPHABET_RUNS = memory.data<u8>([49, 57, 65, 72, 74, 78, 80, 90, 97, 107, 109, 122]);
/** A value's digits, zero-padded to PACKED_DIGITS. */
const SCRATCH = memory.data(<i32>PACKED_DIGITS, 16);
let codesReady = false;

function fillCodes(): void {
  store<u8>(CODES, END_CODE);
  let value: u8 = 0;
  for (let r: usize = 0; r < 12; r += 2) {
    const last = load<u8>(ALPHABET_RUNS + r + 1);
    for (let b = load<u8>(ALPHABET_RUNS + r); b <= last; b++) store<u8>(CODES + <usize>b, value++);
  }
  codesReady = true;
}

let packedAt: usize = 0;

/** Four digits' codes at `p` to three bytes at `out`, the first in the high bits. */
@inline function packGroup(p: usize, out: usize): void {
  const group = (<u32>load<u8>(CODES + <usize>load<u8>(p)) << 18)
    | (<u32>load<u8>(CODES + <usize>load<u8>(p + 1)) << 12)
    | (<u32>load<u8>(CODES + <usize>load<u8>(p + 2)) << 6)
    | <u32>load<u8>(CODES + <usize>load<u8>(p + 3));
  store<u8>(out, <u8>(group >> 16));
  store<u8>(out + 1, <u8>(group >> 8));
  store<u8>(out + 2, <u8>group);
}

/** Makes room, after the input, for `n` packed values: call after `reserve`, which may move the input. */
export function reservePacked(n: u32): Status {
  packedAt = align(skipAt + valueCapacity);
  return growTo(<u64>(packedAt + <usize>n * PACKED_BYTES)) ? Status.OK : Status.OUT_OF_MEMORY;
}

export function packedPtr(): usize { return packedAt; }

/**
 * Packs values 0..n-1, each at most 88 base58 digits (a transaction signature's text), 6 bits a
 * digit, into 66 bytes each at packedPtr(): four digits' codes (END_CODE past a value's end) to
 * three bytes, the first code in the high bits. No big-number arithmetic: a digit is packed as it
 * is, so any such text packs and reads back as itself. 1 when every value is such; else 0, the
 * output incomplete.
 */
export function packDigits(n: u32): u32 {
  if (<usize>n > valueCapacity) return 0;
  if (!codesReady) fillCodes();
  if (!allDigits(<usize>load<u32>(offsetsAt + (<usize>n << 2)))) return 0;
  for (let i: usize = 0; i < <usize>n; i++) {
    const from = <usize>load<u32>(offsetsAt + (i << 2));
    const len = <usize>load<u32>(offsetsAt + ((i + 1) << 2)) - from;
    if (len > PACKED_DIGITS) return 0;
    memory.fill(SCRATCH, 0, PACKED_DIGITS);
    memory.copy(SCRATCH, bytesAt + from, len);
    let out = packedAt + i * PACKED_BYTES;
    for (let d: usize = 0; d < PACKED_DIGITS; d += 4, out += 3) packGroup(SCRATCH + d, out);
  }
  return 1;
}
