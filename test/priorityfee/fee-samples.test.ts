/**
 * A fee window's samples gathered from spans of resident columns, and each block's counters,
 * against plain loops over the rows as they came (votes among them): the fee-paying non-votes'
 * price, fee and limit, their position in the block (votes counted), the zero-price ones counted,
 * and the non-votes' fees summed exactly, saturating at 2^64 - 1 only after the block's exact sum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkColumnsOf } from '../helpers/chunk-columns.js';
import { splitVotes } from '../../src/ingest/fee-columns.js';
import { runToEnd } from '../../src/platform/event-loop.js';
import { blockCounters, gatherSamples, withBlock, type BlockSpan } from '../../src/priorityfee/fee-samples.js';

interface Row {
  vote: boolean;
  price: bigint;
  fee: bigint;
  limit: number;
}

const U64_MAX = 2n ** 64n - 1n;
const u64 = fc.oneof(fc.constantFrom(0n, 1n, 2n ** 53n + 1n, U64_MAX), fc.bigInt({ min: 0n, max: U64_MAX }));
const row = fc.record({
  vote: fc.boolean(),
  price: fc.oneof(fc.constant(0n), u64),
  fee: u64,
  limit: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
});
const chunk = fc.array(fc.array(row, { maxLength: 40 }), { minLength: 1, maxLength: 5 });

describe('fee window samples', () => {
  it('gathers the fee-paying non-votes of spans of blocks and counts each block like a plain loop', () => {
    fc.assert(
      fc.property(fc.array(chunk, { minLength: 1, maxLength: 3 }), fc.nat(), (chunks, cut) => {
        // every block of every chunk, then a window of the later blocks only
        const split = chunks.map((blocks) => ({ blocks, columns: splitVotes(chunkColumnsOf(blocks)).fees }));
        const all = split.flatMap(({ blocks, columns }) => blocks.map((rows, b) => ({ rows, columns, b })));
        const first = cut % all.length;
        const spans: BlockSpan[] = [];
        for (const { columns, b } of all.slice(first)) withBlock(spans, columns, b);
        expect(spans.length).toBe(new Set(all.slice(first).map((block) => block.columns)).size);

        const samples = runToEnd(gatherSamples(spans));
        const expected = all.slice(first).flatMap(({ rows }) => rows.flatMap((r, i) =>
          r.vote || r.price === 0n ? [] : [{ price: r.price, fee: r.fee, limit: BigInt(r.limit), position: rows.length === 1 ? 0 : i / (rows.length - 1) }]));
        expect([...samples.price]).toEqual(expected.map((s) => s.price));
        expect([...samples.fee]).toEqual(expected.map((s) => s.fee));
        expect([...samples.limit]).toEqual(expected.map((s) => s.limit));
        expect([...samples.position]).toEqual(expected.map((s) => s.position));

        for (const { rows, columns, b } of all) {
          const nonVotes = rows.filter((r) => !r.vote);
          const fees = nonVotes.reduce((sum, r) => sum + r.fee, 0n);
          expect(blockCounters(columns, b)).toEqual({
            txCount: nonVotes.filter((r) => r.price !== 0n).length,
            noPriorityTxCount: nonVotes.filter((r) => r.price === 0n).length,
            totalTxCount: rows.length,
            totalPriorityFees: fees > U64_MAX ? U64_MAX : fees,
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('pauses between pieces of a long window', () => {
    const rows: Row[] = Array.from({ length: 40_000 }, (_, i) => ({ vote: i % 3 === 0, price: BigInt(i % 7), fee: 5n, limit: 1 }));
    const columns = splitVotes(chunkColumnsOf([rows.slice(0, 20_000), rows.slice(20_000)])).fees;
    const steps = gatherSamples([{ columns, from: 0, to: 2 }]);
    let pauses = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) pauses++;
    expect(pauses).toBeGreaterThan(0);
  });
});
