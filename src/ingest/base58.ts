/**
 * The ingest hot path's public-key check: is a string the base58 text of exactly 32 bytes?
 *
 * `src/schema/base58.ts` decodes byte by byte (about 1.4 us a key); a dump of 10^6 trades holds
 * 3 x 10^6 keys, so this check works on 16-bit limbs, two digits at a time, with 32-bit integer
 * operations and without allocating (about 0.4 us). It accepts exactly the strings for which
 * `decodeBase58(text)?.length === 32`, which the tests check against that decoder.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

const LIMBS = 17; // 16-bit limbs: 256 bits and one for the overflow
const limbs = new Uint32Array(LIMBS);

/** True when `text` is base58 (Bitcoin alphabet) for exactly 32 bytes, a Solana public key. */
export function isBase58PublicKey(text: string): boolean {
  const length = text.length;
  if (length < 32 || length > 44) return false;
  let zeros = 0;
  while (zeros < length && text.charCodeAt(zeros) === 49) zeros++; // leading '1' = a zero byte
  let used = 0; // limbs in use (little-endian)
  for (let i = zeros; i < length; ) {
    // two digits a step: limb * 58^2 + carry stays below 2^28, so 32-bit integer operations suffice
    const first = text.charCodeAt(i++);
    let chunk = first < 128 ? DIGIT[first] : -1;
    if (chunk < 0) return false;
    let factor = 58;
    if (i < length) {
      const code = text.charCodeAt(i++);
      const digit = code < 128 ? DIGIT[code] : -1;
      if (digit < 0) return false;
      chunk = chunk * 58 + digit;
      factor = 3364;
    }
    let carry = chunk;
    for (let j = 0; j < used; j++) {
      const x = limbs[j] * factor + carry;
      limbs[j] = x & 0xffff;
      carry = x >>> 16;
    }
    while (carry > 0) {
      if (used === LIMBS) return false;
      limbs[used++] = carry & 0xffff;
      carry >>>= 16;
    }
  }
  const bytes = used === 0 ? 0 : used * 2 - (limbs[used - 1] < 256 ? 1 : 0);
  return zeros + bytes === 32;
}
