/**
 * The store's form of a chunk's transactions (splitVotes) against plain loops over the rows: the
 * non-votes' columns as they were, each block's votes counted, their consumed compute units summed
 * exactly as BigInts (above 2^53 and past 2^64), and each vote's price and limit, whether kept as one
 * value or one per vote. Then the votes of blocks cut apart (sliceVotes, as retention trims a
 * segment) are the whole's, piece by piece.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkColumnsOf } from '../helpers/chunk-columns.js';
import { sliceVotes, splitVotes, type BlockVotes } from '../../src/ingest/fee-columns.js';

interface Row {
  vote: boolean;
  price: bigint;
  fee: bigint;
  limit: number;
  consumed: bigint | null;
}

/** Every vote's price and limit, written out, block by block. */
function perVote(votes: BlockVotes): { price: bigint; limit: number }[] {
  const n = votes.offsets[votes.offsets.length - 1]!;
  return Array.from({ length: n }, (_, i) => ({
    price: typeof votes.price === 'bigint' ? votes.price : votes.price[i]!,
    limit: typeof votes.limit === 'number' ? votes.limit : votes.limit[i]!,
  }));
}

/** What a block's votes come to by a plain loop. */
const summaryOf = (votes: BlockVotes) => ({
  counts: Array.from({ length: votes.consumed.length }, (_, b) => votes.offsets[b + 1]! - votes.offsets[b]!),
  consumed: votes.consumed,
  known: [...votes.consumedKnown],
  values: perVote(votes),
});

const U64_MAX = 2n ** 64n - 1n;
const u64 = fc.oneof(fc.constantFrom(0n, 1n, 2n ** 53n + 1n, U64_MAX), fc.bigInt({ min: 0n, max: U64_MAX }));
/** Votes mostly alike (one price and limit), sometimes not. */
const row = fc.record({
  vote: fc.boolean(),
  price: fc.oneof(fc.constant(0n), fc.constant(0n), u64),
  fee: u64,
  limit: fc.oneof(fc.constant(200_000), fc.constant(200_000), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
  consumed: fc.oneof(fc.constant(null), fc.constant(2_100n), u64),
});
const blocks = fc.array(fc.array(row, { maxLength: 60 }), { minLength: 1, maxLength: 6 });

describe('splitVotes', () => {
  it('keeps the non-votes as they were and sums up each block of votes exactly', () => {
    fc.assert(
      fc.property(blocks, (input) => {
        const { fees, nonVotes, votes } = splitVotes(chunkColumnsOf(input));
        const rows = input.flat();
        expect([...nonVotes].every((i) => !rows[i]!.vote) && [...votes].every((i) => rows[i]!.vote)).toBe(true);
        expect(nonVotes.length + votes.length).toBe(rows.length);
        const nonVoteRows = rows.filter((r) => !r.vote);
        expect([...fees.computeUnitPrice]).toEqual(nonVoteRows.map((r) => r.price));
        expect([...fees.priorityFee]).toEqual(nonVoteRows.map((r) => r.fee));
        expect([...fees.computeUnitLimit]).toEqual(nonVoteRows.map((r) => r.limit));
        expect([...fees.computeUnitsConsumed]).toEqual(nonVoteRows.map((r) => r.consumed ?? 0n));
        expect([...fees.consumedKnown]).toEqual(nonVoteRows.map((r) => (r.consumed === null ? 0 : 1)));
        expect([...fees.index]).toEqual(input.flatMap((block) => block.flatMap((r, i) => (r.vote ? [] : [i]))));
        expect([...fees.offsets]).toEqual([0, ...input.map((_, b) => input.slice(0, b + 1).flat().filter((r) => !r.vote).length)]);
        const voteBlocks = input.map((block) => block.filter((r) => r.vote));
        expect(summaryOf(fees.votes)).toEqual({
          counts: voteBlocks.map((block) => block.length),
          consumed: voteBlocks.map((block) => block.reduce((sum, r) => sum + (r.consumed ?? 0n), 0n)),
          known: voteBlocks.map((block) => (block.every((r) => r.consumed !== null) ? 1 : 0)),
          values: voteBlocks.flat().map((r) => ({ price: r.price, limit: r.limit })),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps one price and one limit for votes that all have them', () => {
    const vote = { vote: true, price: 0n, fee: 0n, limit: 200_000, consumed: 2_100n };
    const { fees } = splitVotes(chunkColumnsOf([[vote, { ...vote, vote: false, price: 5n }, vote], [vote]]));
    expect(fees.votes.price).toBe(0n);
    expect(fees.votes.limit).toBe(200_000);
    expect(fees.votes.consumed).toEqual([4_200n, 2_100n]);
  });

  it('gives the votes of blocks cut apart as they were, piece by piece', () => {
    fc.assert(
      fc.property(blocks, fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), (input, cuts, copy) => {
        const whole = splitVotes(chunkColumnsOf(input)).fees.votes;
        const n = whole.consumed.length;
        const bounds = [...new Set([0, n, ...cuts.map((c) => c % (n + 1))])].sort((a, b) => a - b);
        const pieces = bounds.slice(1).map((to, k) => summaryOf(sliceVotes(whole, bounds[k]!, to, copy)));
        expect({
          counts: pieces.flatMap((p) => p.counts),
          consumed: pieces.flatMap((p) => p.consumed),
          known: pieces.flatMap((p) => p.known),
          values: pieces.flatMap((p) => p.values),
        }).toEqual(summaryOf(whole));
      }),
      { numRuns: 200 },
    );
  });
});
