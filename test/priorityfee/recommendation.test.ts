/**
 * chain::priorityfee::recommendation against a brute-force oracle: for every block and several
 * windows, recompute the whole point from the window's transactions with plain sorts and sums
 * (DESIGN.md 6), and as-of equals live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { nearestRank } from '../helpers/fee-oracle.js';
import { exactSum } from '../oracle/rational.js';
import { callAny } from '../helpers/call.js';

const SECOND = 1_000_000_000n;
const WINDOWS: Record<string, bigint> = { '1s': SECOND, '10s': 10n * SECOND, '1m': 60n * SECOND };
const TIERS: [string, number][] = [['min', 0], ['low', 25], ['medium', 50], ['high', 75], ['very_high', 95], ['max', 100]];
const market = [...generateBlocks({ minutes: 1.5, txPerBlock: 80, seed: 'reco' })]; // every consumed value known
const CU_LIMIT = 60_000_000;

const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const f32 = (x: number) => Math.fround(x);

/** The expected point of the window ending just after block `last` of `chain`, computed from scratch. */
function oracle(chain: GeneratedBlock[], last: number, w: bigint, minSamples: number) {
  const end = chain[last].block.timestamp + 1n;
  const blocks = chain.slice(0, last + 1).filter((b) => b.block.timestamp >= end - w);
  const samples: { price: bigint; position: number; consumed: bigint }[] = [];
  const mins: bigint[] = [];
  const medians: bigint[] = [];
  const fills: number[] = [];
  let noPriority = 0, total = 0, nonVote = 0, nonVoteConsumed = 0n;
  for (const b of blocks) {
    const n = b.transactions.length;
    total += n;
    fills.push((100 * Number(b.transactions.reduce((s, t) => s + t.compute_units_consumed!, 0n))) / CU_LIMIT);
    const prices: bigint[] = [];
    for (const t of b.transactions) {
      if (t.is_vote) continue;
      nonVote++;
      nonVoteConsumed += t.compute_units_consumed!;
      if (t.compute_unit_price === 0n) noPriority++;
      else {
        samples.push({ price: t.compute_unit_price, position: n === 1 ? 0 : t.index / (n - 1), consumed: t.compute_units_consumed! });
        prices.push(t.compute_unit_price);
      }
    }
    if (prices.length) {
      prices.sort(cmp);
      mins.push(prices[0]);
      medians.push(nearestRank(prices, 50_000));
    }
  }
  const prices = samples.map((s) => s.price).sort(cmp);
  const medianConsumed = nearestRank(samples.map((s) => s.consumed).sort(cmp), 50_000);
  let cuLimit = (11n * medianConsumed + 9n) / 10n;
  if (cuLimit > 1_400_000n) cuLimit = 1_400_000n;
  const point: Record<string, string | number | boolean> = {
    tx_count: String(samples.length), no_priority_tx_count: String(noPriority), total_tx_count: String(total),
    data_points: String(samples.length), is_valid: samples.length >= minSamples,
    window_start: encodeTimestamp(end - w), window_end: encodeTimestamp(end),
  };
  for (const [tier, p] of TIERS) {
    const price = nearestRank(prices, p * 1000);
    const above = samples.filter((s) => s.price >= price);
    point[`${tier}_price`] = String(price);
    point[`${tier}_cu_limit`] = String(cuLimit);
    point[`${tier}_fee`] = String((price * cuLimit + 999_999n) / 1_000_000n);
    point[`${tier}_landing_rank_pct`] = f32((100 * exactSum(above.map((a) => a.position))) / above.length);
    point[`${tier}_landing_inclusion_pct`] = f32((100 * mins.filter((m) => m <= price).length) / mins.length);
  }
  fills.sort((a, b) => a - b);
  point.median_block_fill_pct = f32(nearestRank(fills, 50_000));
  point.saturated_block_share_pct = f32((100 * fills.filter((f) => f >= 90).length) / fills.length);
  const m = medians.map(Number);
  const mean = m.reduce((a, b) => a + b, 0) / m.length;
  point.fee_volatility = mean === 0 ? 0 : Math.sqrt(m.reduce((a, x) => a + (x - mean) ** 2, 0) / m.length) / mean;
  point.avg_cu_per_tx = Number(nonVoteConsumed) / nonVote;
  return point;
}

/** Expects `points` (oldest first, one per block of `chain`) to be the oracle's. */
function expectOracle(chain: GeneratedBlock[], points: Record<string, string>[], w: bigint, minSamples: number) {
  for (let i = 0; i < chain.length; i++) {
    const expected = oracle(chain, i, w, minSamples);
    for (const [field, value] of Object.entries(expected)) {
      const got = points[i][field];
      if (typeof value === 'number') {
        expect(Math.abs(Number(got) - value), `block ${i} ${field}: ${got} vs ${value}`).toBeLessThanOrEqual(Math.abs(value) * 2e-7 + 1e-12);
      } else expect(got, `block ${i} ${field}`).toBe(value);
    }
  }
}

async function engineWith(blocks: GeneratedBlock[]): Promise<Engine> {
  const engine = await createEngine({ minSamples: 50 });
  for (let i = 0; i < blocks.length; i += 50) {
    const part = blocks.slice(i, i + 50);
    await engine.ingest({ blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions) });
  }
  return engine;
}

describe('recommendation', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await engineWith(market);
  });
  afterAll(() => engine.close());

  for (const [window, w] of Object.entries(WINDOWS)) {
    it(`matches the brute-force oracle at every block for ${window}`, async () => {
      const points = (await callAny(engine, 'chain::priorityfee::recommendation', { window, limit: 1000 })) as Record<string, string>[];
      expect(points).toHaveLength(market.length);
      points.reverse(); // oldest first, like market
      expectOracle(market, points, w, 50);
    });
  }

  it('a live window slid in pieces (blocks of more samples than it moves between pauses) matches the oracle', async () => {
    // ~1,200 fee-paying samples a block: each enters and leaves the live 10s window in several pieces
    const wide = [...generateBlocks({ blocks: 40, txPerBlock: 1500, seed: 'reco-wide' })];
    const live = await createEngine({ minSamples: 50 });
    try {
      const ingest = (b: GeneratedBlock) => live.ingest({ blocks: [b.block], transactions: b.transactions });
      await ingest(wide[0]!);
      await live.call('chain::priorityfee::recommendation', { window: '10s', limit: 1 }); // the window goes live
      for (const block of wide.slice(1)) await ingest(block);
      const points = (await callAny(live, 'chain::priorityfee::recommendation', { window: '10s', limit: 1000 })) as Record<string, string>[];
      expect(points).toHaveLength(wide.length);
      expectOracle(wide, points.reverse(), WINDOWS['10s']!, 50);
    } finally {
      await live.close();
    }
  });

  it('as of a time equals a live engine fed the earlier blocks', async () => {
    const at = market[120].block.timestamp + 1n;
    const live = await engineWith(market.slice(0, 121));
    try {
      for (const window of ['1s', '1m', '15m']) {
        const asOf = await callAny(engine, 'chain::priorityfee::recommendation', { window, limit: 30, at: encodeTimestamp(at) });
        expect(asOf).toHaveLength(30);
        expect(asOf).toEqual(await callAny(live, 'chain::priorityfee::recommendation', { window, limit: 30 }));
      }
    } finally {
      await live.close();
    }
  });
});
