// The accounts kernels (assembly/accounts) against plain loops over the same transactions: the tiers
// per wanted account, combined and global, and the per-block fee of agave's prioritization fee cache,
// over runs of blocks given in several parts (offsets rebased), with u64 prices past 2^53.
import { describe, expect, it } from 'vitest';
import { accountTiers, NO_ID, recentBlockFees, type AccountBlocks } from '../../src/kernels/accounts.js';
import { mulberry32 } from '../helpers/prng.js';
import { ascending, nearestRank } from '../oracle/percentile.js';

const MILLIS = [0, 25_000, 50_000, 75_000, 95_000, 100_000];

interface Tx { price: bigint; limit: number; vote: boolean; ids: number[] }

/** Seeded blocks of transactions locking ids from a small pool (0 and 1 hot), prices up to 2^64 - 1. */
function blocksOf(seed: number, count: number): Tx[][] {
  const r = mulberry32(seed);
  const price = () => [0n, 1n, BigInt(Math.floor(r() * 1e6)), (1n << 53n) + BigInt(Math.floor(r() * 9)), (1n << 64n) - 1n][Math.floor(r() * 5)]!;
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(r() * 40) }, () => {
    const ids = new Set<number>();
    for (let k = Math.floor(r() * 5); k > 0; k--) ids.add(r() < 0.4 ? Math.floor(r() * 2) : Math.floor(r() * 60));
    return { price: price(), limit: r() < 0.1 ? 0 : 200_000, vote: r() < 0.3, ids: [...ids] };
  }));
}

/** Blocks as kernel parts of `size` blocks each (every part a run of its own arrays, as segments are). */
function partsOf(blocks: Tx[][], size: number): AccountBlocks[] {
  const parts: AccountBlocks[] = [];
  for (let at = 0; at < blocks.length; at += size) {
    const run = blocks.slice(at, at + size);
    const txs = run.flat();
    const spans = [0];
    for (const tx of txs) spans.push(spans.at(-1)! + tx.ids.length);
    const offsets = [0];
    for (const block of run) offsets.push(offsets.at(-1)! + block.length);
    // the part's blocks start one in: a range inside a segment, not at its start
    const pad = { price: 7n, limit: 1, vote: false, ids: [3] };
    const all = [pad, ...txs];
    parts.push({
      price: BigUint64Array.from(all, (t) => t.price), limit: Uint32Array.from(all, (t) => t.limit),
      vote: Uint8Array.from(all, (t) => (t.vote ? 1 : 0)),
      spans: Uint32Array.from([0, ...spans.map((s) => s + 1)]), ids: Uint32Array.from(all.flatMap((t) => t.ids)),
      blocks: Uint32Array.from([0, ...offsets.map((o) => o + 1)]), from: 1, to: run.length + 1,
    });
  }
  return parts;
}

/** Nearest-rank tiers of a list of prices (null when empty). */
const tiersOf = (prices: bigint[]) => (prices.length === 0 ? null : MILLIS.map((m) => nearestRank([...prices].sort(ascending), m)));

describe('accounts kernels', () => {
  for (const [seed, size] of [[1, 1], [2, 3], [3, 64]] as const) {
    // and a block of votes only, one of zero-limit transactions only: no fee for either
    const blocks = [...blocksOf(seed, 30), [{ price: 5n, limit: 200_000, vote: true, ids: [0] }], [{ price: 9n, limit: 0, vote: false, ids: [1] }]];
    const parts = partsOf(blocks, size);
    const txs = blocks.flat();
    // two hot ids, a cold one, one no transaction locks, and a key the dictionary lacks
    const wanted = Uint32Array.of(0, 1, 37, 999, NO_ID);

    for (const includeVote of [false, true]) {
      it(`tiers per account, combined and global equal plain loops (parts of ${size} blocks, votes ${includeVote})`, () => {
        const counted = txs.filter((t) => includeVote || !t.vote);
        const groups = [
          ...[...wanted].map((id) => counted.filter((t) => t.ids.includes(id))),
          counted.filter((t) => t.ids.some((id) => wanted.includes(id))),
          counted,
        ];
        const got = accountTiers(parts, wanted, MILLIS, includeVote);
        expect(got.map((g) => g.count)).toEqual(groups.map((g) => g.length));
        expect(got.map((g) => g.zeros)).toEqual(groups.map((g) => g.filter((t) => t.price === 0n).length));
        expect(got.map((g) => g.tiers)).toEqual(groups.map((g) => tiersOf(g.map((t) => t.price))));
      });
    }

    it(`per block, the fee agave's prioritization fee cache reports (parts of ${size} blocks)`, () => {
      const fees = recentBlockFees(parts, wanted);
      expect(fees).toEqual(blocks.map((block) => {
        const counted = block.filter((t) => !t.vote && t.limit > 0);
        if (counted.length === 0) return null;
        let fee = counted.reduce((m, t) => (t.price < m ? t.price : m), counted[0]!.price);
        for (const id of wanted) {
          const locking = counted.filter((t) => t.ids.includes(id));
          if (locking.length === 0) continue;
          const own = locking.reduce((m, t) => (t.price < m ? t.price : m), locking[0]!.price);
          if (own > fee) fee = own;
        }
        return fee;
      }));
      expect(fees.slice(-2)).toEqual([null, null]);
    });
  }
});
