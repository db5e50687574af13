/**
 * Base58 (Bitcoin alphabet): the text form of Solana public keys, signatures and `json` instruction
 * data. One module for the whole project: a fast encoder (the generator makes millions of keys), a
 * decoder, and an allocation-free public-key check of a string (the check of a whole column of
 * UTF-8 bytes, the ingest hot path, is a kernel: src/kernels/base58.ts).
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** The ASCII code of each digit value, 0..57. */
export const DIGIT_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

// The encoder holds the number as 24-bit limbs and divides by 58^4 per pass, so every step stays an
// exact f64 integer (remainder x 2^24 + limb < 2^48): a 64-byte signature takes ~22 passes, not ~88.
const LIMB = 16777216; // 2^24
const GROUP = 58 * 58 * 58 * 58;

let limbs = new Float64Array(32);
let chars = new Uint8Array(128);

/** Encodes bytes as base58 text (leading zero bytes become leading '1's). */
export function encodeBase58(bytes: Uint8Array): string {
  const length = bytes.length;
  let zeros = 0;
  while (zeros < length && bytes[zeros] === 0) zeros++;

  const limbCount = Math.ceil(length / 3);
  const charCapacity = Math.ceil(length * 1.3658) + 4;
  if (limbs.length < limbCount) limbs = new Float64Array(limbCount);
  if (chars.length < charCapacity) chars = new Uint8Array(charCapacity);

  // Big-endian 24-bit limbs; the first limb takes the bytes left over from a multiple of three.
  let pos = 0;
  let limb = 0;
  const head = length % 3 || 3;
  for (let i = 0; i < head; i++) limb = limb * 256 + bytes[pos++];
  limbs[0] = limb;
  for (let l = 1; l < limbCount; l++, pos += 3) limbs[l] = (bytes[pos] << 16) | (bytes[pos + 1] << 8) | bytes[pos + 2];

  let end = charCapacity;
  let first = 0;
  while (first < limbCount && limbs[first] === 0) first++;
  while (first < limbCount) {
    let remainder = 0;
    for (let l = first; l < limbCount; l++) {
      const current = remainder * LIMB + limbs[l];
      const quotient = Math.floor(current / GROUP);
      remainder = current - quotient * GROUP;
      limbs[l] = quotient;
    }
    for (let k = 0; k < 4; k++) {
      const q = Math.floor(remainder / 58);
      chars[--end] = DIGIT_CODES[remainder - q * 58];
      remainder = q;
    }
    while (first < limbCount && limbs[first] === 0) first++;
  }
  while (end < charCapacity && chars[end] === 49) end++; // '1': zero digits of the top group
  for (let i = 0; i < zeros; i++) chars[--end] = 49;
  return String.fromCharCode.apply(null, chars.subarray(end, charCapacity) as unknown as number[]);
}

/** Decodes base58 text; returns null when a character is outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++;
  // base-256 digits, least significant first; log(58)/log(256) < 0.733
  const bytes = new Uint8Array(Math.ceil((text.length - zeros) * 0.733) + 1);
  let length = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? INDEX[code] : -1;
    if (value < 0) return null;
    let carry = value;
    let j = 0;
    for (; j < length || carry !== 0; j++) {
      carry += bytes[j] * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    length = j;
  }
  const out = new Uint8Array(zeros + length);
  for (let i = 0; i < length; i++) out[zeros + i] = bytes[length - 1 - i];
  return out;
}

const LIMBS = 17; // 16-bit limbs: 256 bits and one for the overflow
const keyLimbs = new Uint32Array(LIMBS);

/**
 * True when `text` is base58 for exactly 32 bytes: a Solana public key (a mint, a wallet, a program).
 * The ingest hot path checks millions of keys: this works on 16-bit limbs, two digits at a time,
 * without allocating, and accepts exactly the strings for which `decodeBase58(text)?.length === 32`.
 */
export function isPublicKey(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const length = text.length;
  if (length < 32 || length > 44) return false;
  let zeros = 0;
  while (zeros < length && text.charCodeAt(zeros) === 49) zeros++; // leading '1' = a zero byte
  let used = 0; // limbs in use (little-endian)
  for (let i = zeros; i < length; ) {
    // two digits a step: limb * 58^2 + carry stays below 2^28, so 32-bit integer operations suffice
    const first = text.charCodeAt(i++);
    let chunk = first < 128 ? INDEX[first] : -1;
    if (chunk < 0) return false;
    let factor = 58;
    if (i < length) {
      const code = text.charCodeAt(i++);
      const digit = code < 128 ? INDEX[code] : -1;
      if (digit < 0) return false;
      chunk = chunk * 58 + digit;
      factor = 3364;
    }
    let carry = chunk;
    for (let j = 0; j < used; j++) {
      const x = keyLimbs[j] * factor + carry;
      keyLimbs[j] = x & 0xffff;
      carry = x >>> 16;
    }
    while (carry > 0) {
      if (used === LIMBS) return false;
      keyLimbs[used++] = carry & 0xffff;
      carry >>>= 16;
    }
  }
  const bytes = used === 0 ? 0 : used * 2 - (keyLimbs[used - 1] < 256 ? 1 : 0);
  return zeros + bytes === 32;
}
