/**
 * The dictionary of account keys (the keys kernel, assembly/keys) against a plain oracle: a Map
 * from each key to the number of distinct keys seen before it. Keys of any length and byte value,
 * repeated, in batches large enough to grow every region of the kernel's memory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountKeys, KEY_BATCH, KeyCompaction } from '../../src/store/account-keys.js';

const encoder = new TextEncoder();

/** A string column's bytes and offsets. */
function column(keys: readonly string[]): { bytes: Uint8Array; offsets: Int32Array } {
  const parts = keys.map((k) => encoder.encode(k));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const bytes = new Uint8Array(offsets[parts.length]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  return { bytes, offsets };
}

/** Keys from..to of a column interned, KEY_BATCH a call, as the resident segments do. */
function intern(keys: AccountKeys, bytes: Uint8Array, offsets: Int32Array, from = 0, to = offsets.length - 1): Uint32Array {
  const out = new Uint32Array(to - from);
  for (let at = from; at < to; at += KEY_BATCH) keys.internBatch(bytes, offsets, at, Math.min(to, at + KEY_BATCH), out, at - from);
  return out;
}

/** The oracle's ids: first-seen order. */
function oracle(keys: readonly string[], seen = new Map<string, number>()): number[] {
  return keys.map((k) => seen.get(k) ?? (seen.set(k, seen.size), seen.size - 1));
}

describe('AccountKeys', () => {
  it('gives each distinct key the id of its first appearance, finds them, reads them back', () => {
    const key = fc.oneof(
      fc.string({ minLength: 0, maxLength: 60 }), // any length, short ones hashed byte by byte
      fc.constantFrom('So11111111111111111111111111111111111111112', 'Vote111111111111111111111111111111111111111', '11111111111111111111111111111111'),
      fc.integer({ min: 0, max: 400 }).map((n) => `${'x'.repeat(20)}${n.toString(36).padStart(24, 'k')}`), // long keys differing past the hashed words
    );
    fc.assert(fc.property(fc.array(fc.array(key, { maxLength: 300 }), { minLength: 1, maxLength: 4 }), (batches) => {
      const keys = new AccountKeys();
      const seen = new Map<string, number>();
      for (const batch of batches) {
        const { bytes, offsets } = column(batch);
        expect(Array.from(intern(keys, bytes, offsets))).toEqual(oracle(batch, seen));
      }
      expect(keys.size).toBe(seen.size);
      for (const [k, id] of seen) {
        expect(keys.find(k)).toBe(id);
        if (/^[\x20-\x7e]*$/.test(k)) expect(keys.keyOf(id)).toBe(k);
      }
      expect(keys.find('not a key held anywhere: ' + 'z'.repeat(30))).toBeUndefined();
    }), { numRuns: 200 });
  });

  // keys that share all but their first and last bytes: a hash of part of each key would put them all in one chain
  it('grows through many batches of keys alike but for a few bytes, in bounded time, and moves a subset to a new dictionary', () => {
    const keys = new AccountKeys();
    const all = Array.from({ length: 150_000 }, (_, i) => `${(i * 2654435761 >>> 0).toString(36).padStart(8, '1')}${'A'.repeat(24)}${i.toString(36)}`);
    const stream = Array.from({ length: 400_000 }, (_, i) => all[(i * 7919) % all.length]!);
    const { bytes, offsets } = column(stream);
    const ids = intern(keys, bytes, offsets, 0, stream.length);
    const expected = oracle(stream);
    expect(ids.findIndex((id, i) => id !== expected[i])).toBe(-1); // (not toEqual: its diff of 400,000 items is slow)
    expect(keys.size).toBe(all.length);
    expect(stream.length).toBeGreaterThan(100 * KEY_BATCH);
    const some = Uint32Array.from({ length: 5000 }, (_, j) => (j * 29) % keys.size);
    const compacted = new AccountKeys();
    const moved = compacted.internFrom(keys, some);
    expect(Array.from(moved, (id) => compacted.keyOf(id))).toEqual(Array.from(some, (id) => keys.keyOf(id)));
    expect(compacted.size).toBe(new Set(some).size);
  });

  it('is compacted when under half of it is in use, its keys in use counted again only once it holds twice the last count', () => {
    const keys = new AccountKeys();
    const key = (i: number) => `key-${i.toString(36).padStart(10, '0')}${'B'.repeat(20)}`;
    const add = (from: number, to: number) => {
      const { bytes, offsets } = column(Array.from({ length: to - from }, (_, i) => key(from + i)));
      return intern(keys, bytes, offsets);
    };
    const first = add(0, 70_000);
    const compaction = new KeyCompaction();
    let counts = 0;
    const lists = (held: Uint32Array[]) => () => (counts++, held);
    // 60,000 of 70,000 in use: not worth it, and not counted again before the dictionary holds 120,000
    expect(compaction.compact(keys, lists([first.subarray(0, 60_000)]))).toBeUndefined();
    expect(compaction.compact(keys, lists([first.subarray(0, 10)]))).toBeUndefined();
    const more = add(70_000, 119_999);
    expect(compaction.compact(keys, lists([more]))).toBeUndefined();
    expect(counts).toBe(1);
    // at twice the last count, counted: 49,999 of 119,999 in use, so compacted to those, their ids moved
    const last = add(119_999, 120_000);
    const held = [more, last];
    const compacted = compaction.compact(keys, lists(held))!;
    expect(counts).toBe(2);
    expect(compacted.keys.size).toBe(50_000);
    const moved = compacted.move(more);
    for (const j of [0, 1, 25_000, 49_998]) expect(compacted.keys.keyOf(moved[j]!)).toBe(key(70_000 + j));
    expect(compacted.keys.keyOf(compacted.move(last)[0]!)).toBe(key(119_999));
  });
});
