/**
 * Synthetic public keys and transaction signatures. Keys are 32 random bytes, base58-encoded. A
 * signature is drawn directly as base58 digits (encoding 64 random bytes would dominate the cost of a
 * 12M-row hour): the digit count and leading digit keep its value in [2^504, 2^512), so every
 * signature decodes to exactly 64 bytes, 88 characters long in ~80% of cases and 87 otherwise, as for
 * uniform 64-byte values. Nine of the digits carry a keyed bijection of (slot mod 2^32, index), so the
 * signatures of one run are unique by construction.
 */
import { encodeBase58 } from '../schema/base58.js';
import { Rng } from './prng.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const FIVE_DIGITS = 58 ** 5; // < 2^31: five base58 digits per u32 with int32 arithmetic
const MASK_26 = 0x3ffffff;
const TWO_POW_26 = 67108864;
const MAX_INDEX = 1 << 20;

/** A random 32-byte public key in base58. */
export function randomPublicKey(rng: Rng): string {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i += 4) {
    const word = rng.u32();
    bytes[i] = word >>> 24;
    bytes[i + 1] = (word >>> 16) & 0xff;
    bytes[i + 2] = (word >>> 8) & 0xff;
    bytes[i + 3] = word & 0xff;
  }
  return encodeBase58(bytes);
}

/**
 * A fixed set of random public keys drawn with a power-law preference for the first ones (a few bots
 * and market makers sign most transactions; a long tail signs a few each).
 */
export class KeyPool {
  readonly keys: readonly string[];
  private readonly skew: number;

  /** `size` keys from `rng`; `skew` >= 1 (1 = uniform; larger = more concentrated on the head). */
  constructor(rng: Rng, size: number, skew = 1) {
    const keys: string[] = [];
    for (let i = 0; i < size; i++) keys.push(randomPublicKey(rng));
    this.keys = keys;
    this.skew = skew;
  }

  /** The index of a key drawn from the pool. */
  pickIndex(rng: Rng): number {
    const u = rng.float();
    return Math.floor(this.keys.length * (this.skew === 1 ? u : u ** this.skew));
  }

  /** A key drawn from the pool. */
  pick(rng: Rng): string {
    return this.keys[this.pickIndex(rng)];
  }
}

/** Makes the transaction signatures of a run: random base58 digits plus a unique (slot, index) tag. */
export class SignatureMaker {
  private readonly rng: Rng;
  private readonly roundKeys: Int32Array;
  private readonly long = new Array<number>(88).fill(49);
  private readonly short = new Array<number>(87).fill(49);

  /** Signatures drawn from `rng`; the tag bijection is keyed from the same stream. */
  constructor(rng: Rng) {
    this.rng = rng;
    this.roundKeys = Int32Array.from({ length: 4 }, () => rng.u32() | 0);
  }

  /** The signature of the transaction at `index` (< 2^20) of block `slot`. */
  make(slot: number, index: number): string {
    if (!(index >= 0 && index < MAX_INDEX)) throw new RangeError(`transaction index out of range: ${index}`);
    const rng = this.rng;
    const long = rng.float() < 0.8;
    const chars = long ? this.long : this.short;
    const length = chars.length;
    chars[0] = CODES[long ? 1 + rng.int(4) : 2 + rng.int(56)];

    let tag = this.tag(slot % 4294967296, index); // < 2^52 < 58^9: nine digits
    for (let k = 9; k >= 1; k--) {
      const q = Math.floor(tag / 58);
      chars[k] = CODES[tag - q * 58];
      tag = q;
    }

    for (let pos = 10; pos < length; ) {
      let v = Math.floor(rng.u32() * (FIVE_DIGITS / 4294967296));
      for (let k = 0; k < 5 && pos < length; k++, pos++) {
        const q = (v / 58) | 0;
        chars[pos] = CODES[v - q * 58];
        v = q;
      }
    }
    return String.fromCharCode.apply(null, chars);
  }

  /** A keyed 4-round Feistel permutation of the 52-bit value slot x 2^20 + index. */
  private tag(slot: number, index: number): number {
    const packed = slot * MAX_INDEX + index;
    let left = Math.floor(packed / TWO_POW_26);
    let right = packed - left * TWO_POW_26;
    for (let round = 0; round < 4; round++) {
      let f = Math.imul(right ^ this.roundKeys[round], 0x9e3779b1);
      f ^= f >>> 15;
      f = Math.imul(f, 0x85ebca6b);
      f ^= f >>> 13;
      const next = (left ^ f) & MASK_26;
      left = right;
      right = next;
    }
    return left * TWO_POW_26 + right;
  }
}
