/** Base58 (Bitcoin alphabet), as Solana writes public keys, signatures and `json` instruction data. */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as base58; each leading zero byte becomes a leading '1'. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // base-58 digits, least significant first; log(256)/log(58) < 1.37
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.37) + 1);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i];
    let j = 0;
    for (; j < length || carry !== 0; j++) {
      carry += digits[j] * 256;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    length = j;
  }
  let out = '1'.repeat(zeros);
  for (let i = length - 1; i >= 0; i--) out += ALPHABET[digits[i]];
  return out;
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
