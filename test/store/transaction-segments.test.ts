import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../src/schema/base58.js';
import type { AccountKeys } from '../../src/store/account-keys.js';
import { residentTransactions, TransactionSegments, type SegmentRange } from '../../src/store/transaction-segments.js';
import { canonicalTable, generateBlock, heldRows } from './fixtures.js';

/** A canonical transactions table of the given (slot, index) rows, in that order. */
const rows = (keys: [bigint, number][]): Table => {
  const txs = keys.map(([slot, index]) => ({ ...generateBlock(slot, index + 1).transactions[index]! }));
  return canonicalTable('transactions', txs);
};
/** Block times of these tests: slot s at 1000·s ns, so that the cut before slot s's time drops the slots before s. */
const timeOf = (slot: bigint) => slot * 1000n;
const resident = (keys: [bigint, number][]) => residentTransactions(rows(keys), timeOf);
/** `slot/index` of every transaction of slots first..last, and the signatures whose text is kept, in order. */
const keysOf = (segments: TransactionSegments, first: bigint, last: bigint) => heldRows(segments.held(first, last)).keys;
const textOf = (segments: TransactionSegments, first: bigint, last: bigint) => heldRows(segments.held(first, last)).signatures;

describe('TransactionSegments', () => {
  it('answers a slot range in (slot, index) order, whatever the order of rows and commits', () => {
    const segments = new TransactionSegments();
    segments.append(resident([[5n, 1], [4n, 0], [5n, 0], [4n, 2]])); // rows out of order within a commit
    segments.append(resident([[1n, 0], [2n, 0], [2n, 1]])); // an older commit after a newer one
    segments.append(resident([[7n, 0], [9n, 0]]));
    const all = heldRows(segments.held(0n, 100n));
    expect(all.keys).toEqual(['1/0', '2/0', '2/1', '4/0', '4/2', '5/0', '5/1', '7/0', '9/0']);
    // text is kept for the fee payers (index > 0 in these rows), each block's best first
    expect(all.signatures).toEqual(['sig-2-1', 'sig-4-2', 'sig-5-1']);
    expect(all.kept.map((i) => all.keys[i])).toEqual(['2/1', '4/2', '5/1']);
    const some = heldRows(segments.held(2n, 5n));
    expect(some.keys).toEqual(['2/0', '2/1', '4/0', '4/2', '5/0', '5/1']);
    expect(some.keptOffsets).toEqual([0, 1, 2, 3]);
    expect(keysOf(segments, 6n, 8n)).toEqual(['7/0']);
    expect(segments.held(10n, 20n)).toEqual([]);
    expect(segments.rows).toBe(9);
  });

  it('drops the blocks before a cut, trimming the segment it goes through', () => {
    const segments = new TransactionSegments();
    segments.append(resident([[1n, 0], [2n, 0]]));
    segments.append(resident([[3n, 0], [3n, 1], [4n, 0], [4n, 1], [5n, 0]]));
    segments.pruneBefore(timeOf(4n));
    expect(keysOf(segments, 0n, 100n)).toEqual(['4/0', '4/1', '5/0']);
    expect(textOf(segments, 0n, 100n)).toEqual(['sig-4-1']);
    expect(heldRows(segments.held(0n, 100n)).kept).toEqual([1]);
    expect(segments.rows).toBe(3);
    segments.pruneBefore(timeOf(11n));
    expect(segments.rows).toBe(0);
  });
});

describe('the write-locked accounts of the resident transactions', () => {
  /** A commit of one transaction per slot, each locking the given keys; keys written as base58 of 32 bytes. */
  const key = (n: number) => encodeBase58(Uint8Array.from({ length: 32 }, (_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 7 + i)));
  const commit = (slots: bigint[], lists: string[][], keys: AccountKeys) => {
    const txs = slots.map((slot, i) => ({ ...generateBlock(slot, 1).transactions[0]!, writable_accounts: lists[i]! }));
    return residentTransactions(canonicalTable('transactions', txs), timeOf, keys);
  };
  /** Every transaction's keys in the ranges, read back through their dictionary. */
  const listsOf = (ranges: SegmentRange[]) => ranges.flatMap(({ segment: { columns, accounts: a }, from, to }) =>
    Array.from({ length: columns.offsets[to]! - columns.offsets[from]! }, (_, k) => {
      const i = columns.offsets[from]! + k;
      return Array.from(a.ids.subarray(a.offsets[i]!, a.offsets[i + 1]!), (id) => a.keys.keyOf(id));
    }));

  it('keeps each transaction its keys through slices, retention and the compaction of the dictionary', async () => {
    const segments = new TransactionSegments();
    // 70,000 keys in the old blocks (past the compaction threshold), a few shared with the new ones
    const oldSlots = Array.from({ length: 700 }, (_, i) => BigInt(i + 1));
    const oldLists = oldSlots.map((_, i) => Array.from({ length: 100 }, (_, j) => key(i * 100 + j)));
    segments.append(commit(oldSlots, oldLists, segments.keys));
    const held = await segments.ranges(600n, 700n); // a reader holding blocks before the compaction
    const heldLists = listsOf(held);
    const newSlots = [800n, 801n, 802n];
    const newLists = [[key(5), key(123_456)], [], [key(123_456), key(69_999), key(5)]];
    segments.append(commit(newSlots, newLists, segments.keys));
    expect(segments.keys.size).toBe(70_001);

    segments.pruneBefore(timeOf(701n));
    expect(segments.keys.size).toBe(3); // compacted: only the keys still locked are left
    expect(listsOf(await segments.ranges(0n, 1000n))).toEqual(newLists);
    expect(listsOf(held)).toEqual(heldLists); // the reader's ids and dictionary are untouched
    expect(heldLists[0]).toEqual(oldLists[599]);

    // a commit interned into the dictionary before it was compacted moves to the new one when appended
    const before = segments.keys;
    const late = commit([900n], [[key(5), key(42)]], before);
    segments.append(commit([850n], [Array.from({ length: 70_000 }, (_, j) => key(200_000 + j))], segments.keys));
    segments.pruneBefore(timeOf(851n));
    expect(segments.keys).not.toBe(before);
    segments.append(late);
    expect(listsOf(await segments.ranges(0n, 1000n))).toEqual([[key(5), key(42)]]);
  });

  it('keeps the kept transactions\' signers and programs through slices, retention and the compaction of the dictionary', () => {
    /** Block `slot`'s transactions 1..n (each a fee payer), signer and program of each from `who`. */
    const block = (slot: bigint, n: number, who: (index: number) => [string, string]) =>
      generateBlock(slot, n + 1).transactions.slice(1).map((t) => ({ ...t, signer: who(t.index)[0], program: who(t.index)[1] }));
    const commitOf = (slots: bigint[], n: number, who: (slot: bigint, index: number) => [string, string], keys: AccountKeys) =>
      residentTransactions(canonicalTable('transactions', slots.flatMap((slot) => block(slot, n, (i) => who(slot, i)))), timeOf, keys);
    const segments = new TransactionSegments();
    // 70,000 signers in the old blocks (past the compaction threshold), one program each block
    const old = (slot: bigint, i: number): [string, string] => [key(Number(slot) * 100 + i - 1), key(1_000_000 + Number(slot))];
    segments.append(commitOf(Array.from({ length: 700 }, (_, b) => BigInt(b)), 100, old, segments.keys));
    const recent = (slot: bigint, i: number): [string, string] => [key(i === 1 ? 5 : 300_000 + i), key(1_000_000)];
    segments.append(commitOf([800n, 801n], 3, recent, segments.keys));
    const held = segments.held(699n, 699n); // a reader holding a block before the compaction
    const heldText = heldRows(held);
    expect(heldText.signers.slice(0, 2)).toEqual([key(69_999), key(69_998)]); // each block's best fee payer first: the highest index
    expect(heldText.programs.every((p) => p === key(1_000_699))).toBe(true);
    const before = segments.keys;
    expect(before.size).toBe(70_000 + 700 + 2); // the old signers and programs, the new signers not seen before
    // a commit interned into the dictionary before it is compacted
    const late = commitOf([900n], 2, (_, i) => [key(5), key(i === 1 ? 42 : 1_000_000)], before);

    segments.pruneBefore(timeOf(800n));
    expect(segments.keys).not.toBe(before);
    expect(segments.keys.size).toBe(4); // the signers and the program still held
    segments.append(late);
    const now = heldRows(segments.held(0n, 1000n));
    expect(now.signers).toEqual([800n, 801n].flatMap((slot) => [3, 2, 1].map((i) => recent(slot, i)[0])).concat([key(5), key(5)]));
    expect(now.programs).toEqual([...Array(6).fill(key(1_000_000)), key(1_000_000), key(42)]);
    expect(heldRows(segments.held(699n, 699n)).signers).toEqual([]);
    expect(heldRows(held)).toEqual(heldText); // the reader's ids and dictionary are untouched
    // no segment keeps the old dictionary alive
    expect(segments.held(0n, 1000n).every(({ segment }) => segment.text.keys === segments.keys)).toBe(true);
  });
});
