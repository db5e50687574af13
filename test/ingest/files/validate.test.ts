import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPublicKey as isBase58PublicKey } from '../../../src/schema/base58.js';
import { rowsToTable } from '../../../src/ingest/arrow.js';
import { InvalidValue, MAX_SLOT, normalizeValue, TABLE_RULES, validateRows } from '../../../src/ingest/validate.js';
import { allPublicKeysUtf8 } from '../../../src/kernels/base58.js';
import { decodeBase58, encodeBase58 } from '../../../src/schema/base58.js';
import { makeRows, MAX_U64, prng } from './fixtures.js';

const invalid = (kind: Parameters<typeof normalizeValue>[0], value: unknown) => {
  const result = normalizeValue(kind, value);
  expect(result, `${kind} ${String(value)}`).toBeInstanceOf(InvalidValue);
  return (result as InvalidValue).message;
};

describe('column kinds', () => {
  it('u64 from bigint, safe-integer number or decimal string, exact up to 2^64 - 1', () => {
    expect(normalizeValue('u64', 0)).toBe(0n);
    expect(normalizeValue('u64', Number.MAX_SAFE_INTEGER)).toBe(2n ** 53n - 1n);
    expect(normalizeValue('u64', MAX_U64)).toBe(MAX_U64);
    expect(normalizeValue('u64', '18446744073709551615')).toBe(MAX_U64);
    expect(normalizeValue('u64', '007')).toBe(7n);
    expect(invalid('u64', '18446744073709551616')).toMatch(/out of range for u64/);
    expect(invalid('u64', MAX_U64 + 1n)).toMatch(/out of range/);
    expect(invalid('u64', -1)).toMatch(/negative/);
    expect(invalid('u64', '-1')).toMatch(/negative/);
    expect(invalid('u64', 1.5)).toMatch(/not an integer/);
    expect(invalid('u64', '1.0')).toMatch(/not an integer/);
    expect(invalid('u64', 2 ** 53)).toMatch(/beyond 2\^53/);
    expect(invalid('u64', 1e20)).toMatch(/beyond 2\^53/);
    for (const text of ['abc', '', ' 1', '1e3', '0x10', '+1']) expect(invalid('u64', text)).toMatch(/not (a number|an integer)/);
    expect(invalid('u64', true)).toMatch(/expected an unsigned integer/);
  });

  it('u32 and u8 ranges', () => {
    expect(normalizeValue('u32', 2 ** 32 - 1)).toBe(2 ** 32 - 1);
    expect(normalizeValue('u32', '4294967295')).toBe(4294967295);
    expect(normalizeValue('u32', 7n)).toBe(7);
    expect(invalid('u32', 2 ** 32)).toMatch(/out of range for u32/);
    expect(normalizeValue('u8', 255)).toBe(255);
    expect(invalid('u8', 256)).toMatch(/out of range for u8/);
    expect(invalid('u8', -1)).toMatch(/negative/);
  });

  it('bool from booleans, "true"/"false" and 1/0', () => {
    for (const value of [true, 'true', 'TRUE', 1, '1', 1n]) expect(normalizeValue('bool', value)).toBe(true);
    for (const value of [false, 'false', 'False', 0, '0', 0n]) expect(normalizeValue('bool', value)).toBe(false);
    for (const value of ['yes', 2, '', 't']) expect(invalid('bool', value)).toMatch(/not a boolean/);
  });

  it('utf8 takes strings only; mint takes base58 of exactly 32 bytes', () => {
    expect(normalizeValue('utf8', '')).toBe('');
    expect(invalid('utf8', 5)).toMatch(/expected a string/);
    expect(normalizeValue('mint', '11111111111111111111111111111111')).toBe('11111111111111111111111111111111');
    expect(invalid('mint', encodeBase58(new Uint8Array(31).fill(200)))).toMatch(/not a base58 32-byte public key/);
    expect(invalid('mint', encodeBase58(new Uint8Array(33).fill(1)))).toMatch(/not a base58 32-byte public key/);
    expect(invalid('mint', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vv')).toMatch(/not a base58/);
    expect(invalid('mint', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10')).toMatch(/not a base58/); // 0 is not base58
  });
});

describe('isBase58PublicKey and the column check agree with decodeBase58(text).length === 32', () => {
  it('on encodings of 31, 32 and 33 random bytes, with leading zeros, at the bounds, and on random strings', () => {
    const random = prng(42);
    const byte = () => Math.floor(random() * 256);
    const texts: string[] = ['', '1', '1'.repeat(32), '1'.repeat(33), 'z'.repeat(44), 'z'.repeat(43), '2'.repeat(44), 'é'.repeat(40)];
    // the bounds of an m-byte number after k leading zero bytes, and their neighbours
    for (let k = 0; k <= 32; k++) {
      for (const bytes of [new Uint8Array(32 - k).fill(255), Uint8Array.from({ length: 32 - k }, (_, i) => (i === 0 ? 1 : 0))]) {
        const text = '1'.repeat(k) + (bytes.length ? encodeBase58(bytes) : '');
        texts.push(text, `${text}1`, text.slice(0, -1), `1${text}`, text.replace(/.$/, 'z'), text.replace(/.$/, '2'));
      }
    }
    for (let i = 0; i < 3000; i++) {
      const length = 31 + (i % 3);
      const bytes = Uint8Array.from({ length }, byte);
      for (let z = 0; z < (i % 5); z++) bytes[z] = 0;
      if (i % 7 === 0) bytes.fill(255);
      texts.push(encodeBase58(bytes));
    }
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl';
    for (let i = 0; i < 3000; i++) {
      const length = 30 + Math.floor(random() * 16);
      texts.push(Array.from({ length }, () => alphabet[Math.floor(random() * (i % 2 ? 58 : alphabet.length))]).join(''));
    }
    const utf8 = new TextEncoder();
    for (const text of texts) {
      const expected = decodeBase58(text)?.length === 32;
      expect(isBase58PublicKey(text), text).toBe(expected);
      const bytes = utf8.encode(`..${text}.`);
      expect(allPublicKeysUtf8(bytes, Int32Array.of(2, bytes.length - 1), 0, 1), text).toBe(expected); // one value, inside other bytes
    }
    // the column-wise check: groups of 1-6 values as an Arrow string column's bytes and offsets, every third one null (empty)
    const valid = (text: string) => decodeBase58(text)?.length === 32;
    for (let start = 0; start < texts.length; start += 1 + (start % 6)) {
      const group = texts.slice(start, start + 1 + (start % 6));
      const nulls = new Set(group.map((_, i) => i).filter((i) => (start + i) % 3 === 0));
      const values = group.map((text, i) => (nulls.has(i) ? '' : text));
      const bytes = utf8.encode(`.${values.join('')}`);
      const offsets = new Int32Array(values.length + 1);
      values.forEach((text, i) => (offsets[i + 1] = offsets[i]! + utf8.encode(text).length));
      offsets.forEach((o, i) => (offsets[i] = o + 1));
      expect(allPublicKeysUtf8(bytes, offsets, 0, values.length), group.join(' ')).toBe(group.every(valid) && nulls.size === 0);
      expect(allPublicKeysUtf8(bytes, offsets, 0, values.length, (i) => nulls.has(i)), group.join(' '))
        .toBe(group.every((text, i) => nulls.has(i) || valid(text)));
    }
    // a null spanning bytes that are not digits fails the column check (the row path then judges each row)
    const key = encodeBase58(new Uint8Array(32).fill(7));
    const bytes = utf8.encode(`${key}0`);
    expect(allPublicKeysUtf8(bytes, Int32Array.from([0, key.length, key.length + 1]), 0, 2, (i) => i === 1)).toBe(false);
    expect(allPublicKeysUtf8(bytes, Int32Array.from([0, key.length, key.length + 1]), 0, 1)).toBe(true);
  });

  it('over a column longer than one kernel call, a bad byte at any of 16 lanes and a bad key past the first call found', () => {
    const utf8 = new TextEncoder();
    const keys = Array.from({ length: 70_000 }, (_, i) => encodeBase58(Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 7) & 255)));
    const column = (values: string[]) => {
      const offsets = new Int32Array(values.length + 1);
      values.forEach((text, i) => (offsets[i + 1] = offsets[i]! + text.length));
      return { bytes: utf8.encode(values.join('')), offsets };
    };
    const all = column(keys);
    expect(allPublicKeysUtf8(all.bytes, all.offsets, 0, keys.length)).toBe(true);
    for (let lane = 0; lane < 16; lane++) {
      const bad = all.bytes.slice();
      bad[all.offsets[100]! + lane] = '0'.charCodeAt(0);
      expect(allPublicKeysUtf8(bad, all.offsets, 0, keys.length)).toBe(false);
      expect(allPublicKeysUtf8(bad, all.offsets, 101, keys.length)).toBe(true); // the bad byte is not in the values checked
    }
    const tooShort = column([...keys.slice(0, 69_000), keys[5]!.slice(0, 31)]);
    expect(allPublicKeysUtf8(tooShort.bytes, tooShort.offsets, 0, 69_001)).toBe(false);
    expect(allPublicKeysUtf8(tooShort.bytes, tooShort.offsets, 0, 69_001, (i) => i === 69_000)).toBe(true);
  });
});

describe('rows', () => {
  it('validateRows keeps valid rows and reports the rest with their row numbers', async () => {
    const [good] = makeRows('tokens', 1, 1);
    const batch = await validateRows('tokens', [good, { ...good, decimals: 300 }, { ...good, mint: 'x' }], 'live', 10);
    expect(batch.rows.numRows).toBe(1);
    expect(batch.read).toBe(3);
    expect(batch.rejections.map((r) => [r.source, r.row, r.field])).toEqual([['live', 11, 'decimals'], ['live', 12, 'mint']]);
  });

  it('rowsToTable refuses values that do not fit, naming row and column, instead of wrapping', () => {
    const [row] = makeRows('trades', 1, 1);
    expect(() => rowsToTable('trades', [row, { ...row, base_amount: -1n }])).toThrow(/trades row 1: base_amount: -1n is not a u64 value/);
    expect(() => rowsToTable('trades', [{ ...row, tx_index: 2 ** 32 }])).toThrow(/tx_index/);
    expect(() => rowsToTable('trades', [{ ...row, signer: null as unknown as string }])).toThrow(/signer: missing value/);
  });
});

describe('the table rules, over a u64 value\'s 32-bit words', () => {
  it('hold exactly where the plain comparisons do: a slot at most 2^53 - 1, an amount not zero', () => {
    const near = (x: bigint) => fc.bigInt({ min: x > 3n ? x - 3n : 0n, max: x + 3n });
    const u64 = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), near(0n), near(MAX_SLOT), near(2n ** 32n), near(2n ** 64n - 4n));
    const rules = Object.values(TABLE_RULES).flat();
    fc.assert(fc.property(u64, (value) => {
      for (const rule of rules) {
        const expected = rule.column === 'slot' ? value <= MAX_SLOT : value !== 0n;
        expect(rule.holds(value), `${rule.column} ${value}`).toBe(expected);
      }
    }), { numRuns: 2000 });
  });
});
