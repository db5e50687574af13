import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../src/schema/base58.js';
import { DerivedKeys, KeyPool, randomPublicKey, SignatureMaker } from '../../src/generate/keys.js';
import { Rng } from '../../src/generate/prng.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Independent oracle: base58 through BigInt. */
function referenceEncode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = '1' + out;
  return out;
}

function referenceDecode(text: string): Uint8Array {
  let n = 0n;
  for (const c of text) {
    const d = ALPHABET.indexOf(c);
    if (d < 0) throw new Error(`not base58: ${c}`);
    n = n * 58n + BigInt(d);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 255n));
    n >>= 8n;
  }
  for (let i = 0; i < text.length && text[i] === '1'; i++) bytes.unshift(0);
  return Uint8Array.from(bytes);
}

describe('encodeBase58', () => {
  it('matches a BigInt reference on random inputs of every length, leading zeros included', () => {
    const rng = Rng.from('base58');
    for (let trial = 0; trial < 3000; trial++) {
      const length = trial % 80;
      const bytes = new Uint8Array(length);
      const zeros = rng.int(4);
      for (let i = zeros; i < length; i++) bytes[i] = rng.int(256);
      expect(encodeBase58(bytes)).toBe(referenceEncode(bytes));
    }
  });

  it('encodes known keys', () => {
    expect(encodeBase58(new Uint8Array(0))).toBe('');
    expect(encodeBase58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    for (const key of ['JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', 'So11111111111111111111111111111111111111112', 'Vote111111111111111111111111111111111111111']) {
      expect(encodeBase58(referenceDecode(key))).toBe(key);
    }
  });
});

describe('keys', () => {
  it('random public keys decode to 32 bytes', () => {
    const rng = Rng.from('keys');
    for (let i = 0; i < 500; i++) expect(referenceDecode(randomPublicKey(rng)).length).toBe(32);
  });

  it('a skewed pool prefers its head', () => {
    const rng = Rng.from('pool');
    const pool = new KeyPool(rng, 1000, 3);
    let head = 0;
    for (let i = 0; i < 10_000; i++) if (pool.pickIndex(rng) < 10) head++;
    expect(head / 10_000).toBeGreaterThan(0.15); // 1% of keys, P(u^3 < 0.01) = 21.5%
    expect(new KeyPool(Rng.from('same'), 5).keys).toEqual(new KeyPool(Rng.from('same'), 5).keys);
  });

  it('derived keys decode to 32 bytes without a leading zero, are a function of their inputs and distinct', () => {
    const keys = new DerivedKeys(Rng.from('derived'));
    const seen = new Set<string>();
    let long = 0;
    const n = 30_000;
    for (let i = 0; i < n; i++) {
      const a = i % 3000;
      const b = Math.floor(i / 3000) * 977 + (i === 0 ? 4294967295 : 0);
      const key = keys.key(a, b);
      seen.add(key);
      if (key.length === 44) long++;
      else expect(key.length).toBe(43);
      if (i % 10 === 0) {
        const bytes = referenceDecode(key);
        expect(bytes.length).toBe(32);
        expect(bytes[0]).not.toBe(0);
      }
    }
    expect(seen.size).toBe(n);
    expect(long / n).toBeGreaterThan(0.92);
    expect(long / n).toBeLessThan(0.96);
    expect(keys.key(17, 5)).toBe(new DerivedKeys(Rng.from('derived')).key(17, 5));
    expect(keys.key(17, 5)).not.toBe(new DerivedKeys(Rng.from('other')).key(17, 5));
    // the extremes of the digit ranges: the largest 44-digit and the smallest 43-digit values
    expect(referenceDecode('H' + 'z'.repeat(43)).length).toBe(32);
    expect(referenceDecode('5' + '1'.repeat(42)).length).toBe(32);
  });

  it('signatures are unique, decode to 64 bytes and are 87 or 88 characters', () => {
    const maker = new SignatureMaker(Rng.from('signatures'));
    const seen = new Set<string>();
    let long = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const slot = 388_000_000 + Math.floor(i / 500);
      const signature = maker.make(slot, i % 500);
      seen.add(signature);
      if (signature.length === 88) long++;
      else expect(signature.length).toBe(87);
      if (i % 10 === 0) expect(referenceDecode(signature).length).toBe(64);
    }
    expect(seen.size).toBe(n);
    expect(long / n).toBeGreaterThan(0.75);
    expect(long / n).toBeLessThan(0.85);
  });

  it('signatures stay 64 bytes at the extremes of the digit ranges', () => {
    // The largest 88-digit and smallest 87-digit values the maker can produce.
    expect(referenceDecode('5' + 'z'.repeat(87)).length).toBe(64);
    expect(referenceDecode('3' + '1'.repeat(86)).length).toBe(64);
  });

  it('rejects an index beyond 2^20', () => {
    expect(() => new SignatureMaker(Rng.from(1)).make(1, 1 << 20)).toThrow(RangeError);
  });
});
