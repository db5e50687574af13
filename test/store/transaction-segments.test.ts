import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { TransactionSegments } from '../../src/store/transaction-segments.js';
import { canonicalIPC, generateBlock } from './fixtures.js';

/** A canonical transactions table of the given (slot, index) rows, in that order. */
const rows = (keys: [bigint, number][]): Table => {
  const txs = keys.map(([slot, index]) => ({ ...generateBlock(slot, index + 1).transactions[index]! }));
  return tableFromIPC(canonicalIPC('transactions', txs));
};
const keysOf = (table: Table) => {
  const slots = table.getChild('slot')!.toArray() as BigUint64Array;
  const index = table.getChild('index')!.toArray() as Uint32Array;
  return Array.from(slots, (slot, i) => `${slot}/${index[i]}`);
};

describe('TransactionSegments', () => {
  it('answers a slot range in (slot, index) order, whatever the order of rows and commits', () => {
    const segments = new TransactionSegments();
    segments.append(rows([[5n, 1], [4n, 0], [5n, 0], [4n, 2]])); // rows out of order within a commit
    segments.append(rows([[1n, 0], [2n, 0], [2n, 1]])); // an older commit after a newer one
    segments.append(rows([[7n, 0], [9n, 0]]));
    expect(keysOf(segments.between(0n, 100n))).toEqual(['1/0', '2/0', '2/1', '4/0', '4/2', '5/0', '5/1', '7/0', '9/0']);
    expect(keysOf(segments.between(2n, 5n))).toEqual(['2/0', '2/1', '4/0', '4/2', '5/0', '5/1']);
    expect(keysOf(segments.between(6n, 8n))).toEqual(['7/0']);
    expect(segments.between(10n, 20n).numRows).toBe(0);
    expect(segments.between(10n, 20n).getChild('slot')).not.toBeNull(); // an empty answer keeps the columns
    expect(segments.rows).toBe(9);
  });

  it('drops the slots through a cut, trimming the segment it goes through', () => {
    const segments = new TransactionSegments();
    segments.append(rows([[1n, 0], [2n, 0]]));
    segments.append(rows([[3n, 0], [4n, 0], [4n, 1], [5n, 0]]));
    segments.pruneThrough(3n);
    expect(keysOf(segments.between(0n, 100n))).toEqual(['4/0', '4/1', '5/0']);
    expect(segments.rows).toBe(3);
    segments.pruneThrough(10n);
    expect(segments.rows).toBe(0);
  });
});
