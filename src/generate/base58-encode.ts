/**
 * A fast base58 (Bitcoin alphabet) encoder for the generator's keys and signatures: the number is
 * held as 24-bit limbs and divided by 58^4 per pass, so every step stays an exact f64 integer
 * (remainder x 2^24 + limb < 2^48) and a 64-byte signature takes ~22 passes instead of ~88.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
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
      chars[--end] = CODES[remainder - q * 58];
      remainder = q;
    }
    while (first < limbCount && limbs[first] === 0) first++;
  }
  while (end < charCapacity && chars[end] === 49) end++; // '1': zero digits of the top group
  for (let i = 0; i < zeros; i++) chars[--end] = 49;
  return String.fromCharCode.apply(null, chars.subarray(end, charCapacity) as unknown as number[]);
}
