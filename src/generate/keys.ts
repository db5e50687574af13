/**
 * Synthetic public keys and transaction signatures. Keys are 32 random bytes, base58-encoded, or for
 * keys that are a function of two integers (`DerivedKeys`: a wallet's token account for a mint)
 * base58 digits drawn directly from a keyed hash, as signatures are. A
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

/** The two digits of each number below 58^2, as character codes. */
const PAIR_FIRST = Uint8Array.from({ length: 3364 }, (_, i) => CODES[Math.floor(i / 58)]);
const PAIR_SECOND = Uint8Array.from({ length: 3364 }, (_, i) => CODES[i % 58]);

/** Share of uniform 32-byte values in [2^248, 2^256) written with 44 base58 digits: (2^256 - 58^43) / (2^256 - 2^248). */
const KEY_LONG_SHARE = 0.942;

/**
 * Public keys that are a fixed function of two integers (a wallet index and a mint index: the
 * wallet's token account for that mint), made without encoding bytes (the generator makes hundreds
 * a block): sfc32 seeded with the two integers and the key words draws base58 digits directly
 * (nearly uniform: a pair of digits per 16 bits), 44
 * digits led by 1..16 (values in [58^43, 17 x 58^43), below 2^256) in 94% of cases, else 43 digits
 * led by 4..57 (values in [4 x 58^42, 58^43), above 2^248). Every key decodes to exactly 32 bytes
 * with a nonzero first byte; distinct inputs give distinct keys but for a negligible chance (~250
 * random bits of digits from a 128-bit state).
 */
export class DerivedKeys {
  private readonly k0: number;
  private readonly k1: number;
  private readonly k2: number;
  private readonly k3: number;
  private readonly long = new Array<number>(44).fill(49);
  private readonly short = new Array<number>(43).fill(49);
  private readonly state = new Rng(1, 0, 0, 0);

  /** Keys keyed by four words of `rng`. */
  constructor(rng: Rng) {
    this.k0 = rng.u32() | 0;
    this.k1 = rng.u32() | 0;
    this.k2 = rng.u32() | 0;
    this.k3 = rng.u32() | 0;
  }

  /** The key of (`a`, `b`), integers in [0, 2^32). */
  key(a: number, b: number): string {
    // sfc32 (prng.ts) from a state injective in (a, b)
    const rng = this.state;
    rng.reset(a ^ this.k0, b ^ this.k1, this.k2, this.k3);
    let t = rng.u32();
    const long = t < KEY_LONG_SHARE * 4294967296;
    const chars = long ? this.long : this.short;
    const length = chars.length;
    const lead = Math.floor((t % 1048576) / 1048576 * (long ? 16 : 54));
    chars[0] = CODES[long ? 1 + lead : 4 + lead];
    // Four digits a word: each 16-bit half scaled to a pair of digits (19 or 20 halves a pair: nearly uniform).
    for (let pos = 1; pos < length; pos += 4) {
      t = rng.u32();
      const high = ((t >>> 16) * 3364) >>> 16;
      const low = ((t & 0xffff) * 3364) >>> 16;
      chars[pos] = PAIR_FIRST[high];
      chars[pos + 1] = PAIR_SECOND[high];
      if (pos + 2 < length) chars[pos + 2] = PAIR_FIRST[low];
      if (pos + 3 < length) chars[pos + 3] = PAIR_SECOND[low];
    }
    return String.fromCharCode.apply(null, chars);
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
