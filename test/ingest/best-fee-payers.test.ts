/**
 * bestFeePayers against a plain reference: every fee-paying (non-vote, nonzero price) row of the
 * block sorted by priority fee, then index, both descending, the first n kept. Fees are drawn from
 * few values (many ties, which the float cut must keep whole) and from the whole u64 range (above
 * 2^53, where the float keys tie fees that differ). The store ranks the non-votes' columns (splitVotes), so
 * the positions found there are mapped back to the chunk's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkColumnsOf } from '../helpers/chunk-columns.js';
import { bestFeePayers } from '../../src/ingest/block-columns.js';
import { splitVotes } from '../../src/ingest/fee-columns.js';

interface Row {
  vote: boolean;
  price: bigint;
  fee: bigint;
}

function reference(block: Row[], first: number, n: number): number[] {
  return block
    .map((row, i) => ({ row, i }))
    .filter(({ row }) => !row.vote && row.price !== 0n)
    .sort((a, b) => (a.row.fee !== b.row.fee ? (a.row.fee > b.row.fee ? -1 : 1) : b.i - a.i))
    .slice(0, n)
    .map(({ i }) => first + i);
}

const HUGE = 2n ** 64n - 1n;
const fee = fc.oneof(
  fc.constantFrom(0n, 1n, 5_000n, 2n ** 53n, 2n ** 53n + 1n, HUGE - 1n, HUGE),
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.bigInt({ min: 2n ** 60n, max: 2n ** 60n + 64n }),
  fc.bigInt({ min: 0n, max: HUGE }),
);
const row = fc.record({ vote: fc.boolean(), price: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: HUGE })), fee });
const block = fc.array(row, { maxLength: 400, size: 'max' });

describe('bestFeePayers', () => {
  it('keeps the best n fee-paying rows of each block, best first, like a full sort', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 120 }), (blocks, n) => {
        const columns = chunkColumnsOf(blocks);
        const { fees, nonVotes } = splitVotes(columns);
        blocks.forEach((rows, b) => {
          const out = new Uint32Array(n + 2).fill(7);
          const kept = bestFeePayers(fees, b, out, 1, n);
          expect(out[0], 'before `at` untouched').toBe(7);
          expect(Array.from(out.subarray(1, 1 + kept), (i) => nonVotes[i])).toEqual(reference(rows, columns.offsets[b]!, n));
        });
      }),
      { numRuns: 300 },
    );
  });
});
