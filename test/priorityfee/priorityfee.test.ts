/**
 * chain::priorityfee::block, fee and top_txs on seeded synthetic blocks, against the brute-force
 * oracle of test/helpers/fee-oracle.ts; window edges; and as-of equals live (an engine fed only
 * the blocks before `at` answers live exactly what the full engine answers as of `at`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { collect, expectedBlock, familyStats } from '../helpers/fee-oracle.js';
import { callAny } from '../helpers/call.js';

const MINUTE = 60_000_000_000n;
// 2.5 minutes of blocks: several 1m windows, one 5m window in progress
const market = [...generateBlocks({ minutes: 2.5, txPerBlock: 90, seed: 'fees' })];
const blockTime = (b: GeneratedBlock) => b.block.timestamp;
const firstOfSecondMinute = market.find((b) => blockTime(b) >= blockTime(market[0]) + MINUTE)!;

async function engineWith(blocks: GeneratedBlock[]): Promise<Engine> {
  const engine = await createEngine({ minSamples: 100 });
  // several ingest calls, so that windows span chunks
  for (let i = 0; i < blocks.length; i += 40) {
    const part = blocks.slice(i, i + 40);
    await engine.ingest({ blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades) });
  }
  return engine;
}

/** Compares a wire record with expected wire strings: integers exactly, floats to float32 precision. */
function expectFields(actual: Record<string, unknown>, expected: Record<string, string | null>, label: string) {
  for (const [field, value] of Object.entries(expected)) {
    if (field === 'std_dev_approx') {
      if (value === null) expect(actual.std_dev, label).toBeNull();
      else expect(Number(actual.std_dev), `${label} std_dev`).toBeCloseTo(Number(value), 6);
      continue;
    }
    const got = actual[field];
    const numeric = value !== null && typeof got === 'string' && /^-?\d+(\.\d+)?$/.test(value) && /^-?\d+(\.\d+)?$/.test(got);
    if (!numeric || !/\./.test(value + got)) expect(got, `${label} ${field}`).toBe(value);
    else expect(Math.abs(Number(got) - Number(value)), `${label} ${field}: ${got} vs ${value}`).toBeLessThanOrEqual(Math.abs(Number(value)) * 1e-6 + 1e-9);
  }
}

describe('priority-fee methods', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await engineWith(market);
  });
  afterAll(() => engine.close());

  it('computes every block record like the oracle', async () => {
    const records = (await engine.call('chain::priorityfee::block', { limit: 1000 })) as Record<string, unknown>[];
    expect(records).toHaveLength(market.length);
    const bySlot = new Map(records.map((r) => [r.slot, r]));
    for (const b of market) expectFields(bySlot.get(String(b.block.slot))!, expectedBlock(b.block, b.transactions), `slot ${b.block.slot}`);
    expect(records[0].slot).toBe(String(market.at(-1)!.block.slot)); // newest first, default limit 1 is the latest
    expect(await engine.call('chain::priorityfee::block', {})).toEqual([records[0]]);
  });

  for (const window of ['1m', '5m']) {
    it(`computes ${window} windows exactly over all their samples`, async () => {
      const w = window === '1m' ? MINUTE : 5n * MINUTE;
      const windows = await callAny(engine, 'chain::priorityfee::fee', { window, limit: 1000 });
      const starts = [...new Set(market.map((b) => (blockTime(b) / w) * w))].sort((a, b) => (a > b ? -1 : 1));
      expect(windows.map((r) => r.window_start)).toEqual(starts.map(encodeTimestamp));
      for (const [i, start] of starts.entries()) {
        const inside = market.filter((b) => blockTime(b) >= start && blockTime(b) < start + w);
        const c = collect(inside);
        const { price_spread: _p, fee_spread: _f, limit_spread: _l, ...stats } = familyStats(c.samples);
        expectFields(windows[i], {
          window_end: encodeTimestamp(start + w),
          timestamp: encodeTimestamp(blockTime(inside.at(-1)!)),
          window_duration: window === '1m' ? 'PT1M' : 'PT5M',
          tx_count: String(c.txCount),
          no_priority_tx_count: String(c.noPriority),
          total_tx_count: String(c.total),
          total_priority_fees: String(c.fees),
          data_points: String(c.txCount),
          ...stats,
        }, `${window} window ${i}`);
        expect(windows[i].is_valid).toBe(c.txCount >= 100);
      }
    });
  }

  it('answers an open window of more samples than the kernel worker is sent in one piece like the oracle', async () => {
    // 110 blocks of 1,500 transactions in one 1h window: over 65,536 fee-paying samples, copied in pieces
    const wide = [...generateBlocks({ blocks: 110, txPerBlock: 1500, seed: 'fees-wide' })];
    const live = await engineWith(wide);
    try {
      const [open] = await callAny(live, 'chain::priorityfee::fee', { window: '1h', limit: 1 });
      const start = (blockTime(wide.at(-1)!) / (60n * MINUTE)) * 60n * MINUTE;
      const c = collect(wide.filter((b) => blockTime(b) >= start));
      expect(c.txCount).toBeGreaterThan(65_536);
      const { price_spread: _p, fee_spread: _f, limit_spread: _l, ...stats } = familyStats(c.samples);
      expectFields(open!, { window_start: encodeTimestamp(start), tx_count: String(c.txCount), ...stats }, 'open 1h window');
    } finally {
      await live.close();
    }
  });

  it('returns the highest-fee transactions of the trailing 5 minutes, newer first on ties', async () => {
    const top = (await callAny(engine, 'chain::priorityfee::top_txs', { window: '5m', limit: 1000 })) as Record<string, string>[];
    const end = blockTime(market.at(-1)!) + 1n;
    const candidates = market
      .filter((b) => blockTime(b) >= end - 5n * MINUTE)
      .flatMap((b) => b.transactions.filter((t) => !t.is_vote && t.compute_unit_price > 0n));
    candidates.sort((a, b) => (a.priority_fee! !== b.priority_fee! ? (a.priority_fee! > b.priority_fee! ? -1 : 1) : a.slot !== b.slot ? (a.slot > b.slot ? -1 : 1) : b.index - a.index));
    expect(top).toHaveLength(100);
    expect(top.map((t) => t.signature)).toEqual(candidates.slice(0, 100).map((t) => t.signature));
    expect(top[0]).toMatchObject({ window_duration: 'PT5M', window_end: encodeTimestamp(end), window_start: encodeTimestamp(end - 5n * MINUTE) });
  });

  describe('as of a time equals what a live engine answered then', () => {
    const cuts = [
      // just after a block in the middle of a 1m window
      blockTime(market[200]) + 1n,
      // the first block of a window: at = just after it, and at = exactly its time (excludes it)
      blockTime(firstOfSecondMinute) + 1n,
      blockTime(firstOfSecondMinute),
    ];
    for (const at of cuts) {
      it(`at ${encodeTimestamp(at)}`, async () => {
        const live = await engineWith(market.filter((b) => blockTime(b) < at));
        try {
          for (const [method, params] of [
            ['chain::priorityfee::block', { limit: 50 }],
            ['chain::priorityfee::fee', { window: '1m', limit: 10 }],
            ['chain::priorityfee::fee', { window: '15m', limit: 10 }],
            ['chain::priorityfee::top_txs', { window: '5m', limit: 100 }],
          ] as const) {
            const asOf = await engine.call(method, { ...params, at: encodeTimestamp(at) });
            expect(asOf.length, method).toBeGreaterThan(0);
            expect(asOf, `${method} ${JSON.stringify(params)}`).toEqual(await live.call(method, params));
          }
        } finally {
          await live.close();
        }
      });
    }
  });
});

describe('priority-fee window edges', () => {
  it('empty engine, a single sample, all-zero prices', async () => {
    const engine = await createEngine({ minSamples: 1 });
    try {
      expect(await engine.call('chain::priorityfee::fee', {})).toEqual([]);
      const [b] = market;
      const zero = b.transactions.map((t) => (t.is_vote ? t : { ...t, compute_unit_price: 0n, priority_fee: 0n }));
      await engine.ingest({ blocks: [b.block], transactions: zero });
      const [block] = (await engine.call('chain::priorityfee::block', {})) as Record<string, unknown>[];
      expect(block).toMatchObject({ tx_count: '0', price_p50: null, fee_mean: null, position_at_fee_p99: null, std_dev: null });
      const [window] = (await engine.call('chain::priorityfee::fee', {})) as Record<string, unknown>[];
      expect(window).toMatchObject({ data_points: '0', is_valid: false, price_max: null });

      const next = market[1];
      const single = [...next.transactions.filter((t) => t.is_vote), { ...next.transactions.find((t) => !t.is_vote && t.compute_unit_price > 0n)!, index: 0 }];
      await engine.ingest({ blocks: [next.block], transactions: single.map((t, i) => ({ ...t, index: i })) });
      const [w] = (await callAny(engine, 'chain::priorityfee::fee', {})) as Record<string, string>[];
      const sample = single.find((t) => !t.is_vote)!;
      expect(w).toMatchObject({ data_points: '1', is_valid: true, price_min: String(sample.compute_unit_price), price_p99_999: String(sample.compute_unit_price) });
    } finally {
      await engine.close();
    }
  });
});
