/**
 * The live answers served from memory (token, trades, ingestion, top_txs) equal the store's: the
 * same query with `at` just after the newest block reads the store, and must give the same wire
 * records in the same order. On seeded synthetic blocks fed in chunks and one by one, and on edge
 * cases: an empty engine, limits above what is held, every filter, tokens upserted again, and
 * retention (the store deletes old rows that memory still holds).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LENS_MINT, PUPS_MINT, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { randomPublicKey } from '../../src/generate/keys.js';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { Rng } from '../../src/generate/prng.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';

type Query = readonly [method: string, params: Record<string, unknown>];

const UNKNOWN_MINT = randomPublicKey(Rng.from(7, 'unknown mint'));

const QUERIES: readonly Query[] = [
  ['chain::market::token', {}],
  ['chain::market::token', { mint: SOL_MINT }],
  ['chain::market::token', { mint: UNKNOWN_MINT }],
  ['chain::market::trades', {}],
  ['chain::market::trades', { limit: 1 }],
  ['chain::market::trades', { limit: 1000 }],
  ['chain::market::trades', { base: SOL_MINT, quote: USDC_MINT, limit: 1000 }],
  ['chain::market::trades', { base: LENS_MINT, quote: USDC_MINT, limit: 1000 }],
  ['chain::market::trades', { base: PUPS_MINT, quote: SOL_MINT, limit: 7 }],
  ['chain::market::trades', { base: USDC_MINT, quote: SOL_MINT, limit: 10 }],
  ['chain::market::trades', { base: SOL_MINT, limit: 1000 }],
  ['chain::market::trades', { base: PUPS_MINT, limit: 3 }],
  ['chain::market::trades', { quote: USDC_MINT, limit: 1000 }],
  ['chain::market::trades', { quote: SOL_MINT, limit: 1 }],
  ['chain::market::trades', { base: UNKNOWN_MINT }],
  ['chain::market::trades', { quote: UNKNOWN_MINT }],
  ['chain::market::ingestion', {}],
  ['chain::market::ingestion', { limit: 1 }],
  ['chain::market::ingestion', { limit: 300 }],
  ['chain::priorityfee::top_txs', { window: '5m', limit: 1 }],
  ['chain::priorityfee::top_txs', { window: '5m' }],
  ['chain::priorityfee::top_txs', { window: '5m', limit: 1000 }],
];

const rows = (blocks: readonly GeneratedBlock[]) => ({
  blocks: blocks.map((b) => b.block), transactions: blocks.flatMap((b) => b.transactions), trades: blocks.flatMap((b) => b.trades),
});

/** Every query answered live equals the same query as of just after `newest` (the store's answer). */
async function expectLiveEqualsStore(engine: Engine, newest: GeneratedBlock, queries = QUERIES): Promise<void> {
  const at = encodeTimestamp(newest.block.timestamp + 1n);
  for (const [method, params] of queries) {
    const live = await engine.call(method, params);
    const asOf = await engine.call(method, { ...params, at });
    expect(live, `${method} ${JSON.stringify(params)}`).toEqual(asOf);
  }
}

describe('live answers from memory equal the store', () => {
  // 6 minutes: the 5m top list has expired blocks, SOL/USDC has more than 1000 trades, more than 300 slots
  const market = [...generateBlocks({ minutes: 6, txPerBlock: 30, seed: 'live answers' })];
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });
  afterAll(() => engine.close());

  it('on an empty engine: nothing, live and as of', async () => {
    for (const [method, params] of QUERIES) {
      expect(await engine.call(method, params), method).toEqual([]);
      expect(await engine.call(method, { ...params, at: '2030-01-01' }), method).toEqual([]);
    }
  });

  it('after chunks of blocks, and after single blocks', async () => {
    await engine.ingest({ tokens: generateTokens() });
    const chunked = market.slice(0, -5);
    for (let i = 0; i < chunked.length; i += 60) {
      await engine.ingest(rows(chunked.slice(i, i + 60)));
      if (i === 0) await expectLiveEqualsStore(engine, chunked[Math.min(59, chunked.length - 1)]!);
    }
    await expectLiveEqualsStore(engine, chunked.at(-1)!);
    for (const block of market.slice(-5)) await engine.ingest(rows([block]));
    await expectLiveEqualsStore(engine, market.at(-1)!);
  });

  it('answers what is expected, not only what the store says', async () => {
    const trades = market.flatMap((b) => b.trades);
    const solUsdc = trades.filter((t) => t.base === SOL_MINT && t.quote === USDC_MINT);
    expect(solUsdc.length).toBeGreaterThan(1000); // the pair's list was trimmed
    const newest = (await engine.call('chain::market::trades', { base: SOL_MINT, quote: USDC_MINT, limit: 1000 })) as { signature: string }[];
    expect(newest.map((t) => t.signature)).toEqual(solUsdc.slice(-1000).reverse().map((t) => t.signature));
    const timings = (await engine.call('chain::market::ingestion', { limit: 300 })) as { slot: string }[];
    expect(timings.map((t) => BigInt(t.slot))).toEqual(market.slice(-300).reverse().map((b) => b.block.slot));
    const top = (await engine.call('chain::priorityfee::top_txs', { window: '5m', limit: 1000 })) as unknown[];
    expect(top).toHaveLength(100);
  });

  it('tokens upserted again: the last row of a mint wins, order by mint kept', async () => {
    const fresh = [1, 2, 3].map((i) => ({ mint: randomPublicKey(Rng.from(i, 'token')), name: `T${i}`, symbol: `T${i}`, decimals: i, supply: null }));
    const [sol] = generateTokens().filter((t) => t.mint === SOL_MINT);
    await engine.ingest({ tokens: [fresh[0]!, { ...sol!, name: 'first' }, fresh[1]!, { ...sol!, name: 'renamed', supply: 5n }] });
    await engine.ingest({ tokens: [fresh[2]!, { ...fresh[0]!, symbol: 'AGAIN' }] });
    await expectLiveEqualsStore(engine, market.at(-1)!);
    const tokens = (await engine.call('chain::market::token', {})) as { mint: string; name: string; symbol: string; supply: string | null }[];
    expect(tokens).toHaveLength(generateTokens().length + 3);
    expect(tokens.map((t) => t.mint)).toEqual(tokens.map((t) => t.mint).sort());
    expect(tokens.find((t) => t.mint === SOL_MINT)).toMatchObject({ name: 'renamed', supply: '5' });
    expect(tokens.find((t) => t.mint === fresh[0]!.mint)).toMatchObject({ symbol: 'AGAIN', supply: null });
  });
});

describe('live answers: limits above what is held', () => {
  it('a few blocks: every trade, every slot', async () => {
    const market = [...generateBlocks({ blocks: 12, txPerBlock: 20, seed: 'few' })];
    const engine = await createEngine();
    try {
      await engine.ingest(rows(market.slice(0, 8)));
      for (const block of market.slice(8)) await engine.ingest(rows([block]));
      await expectLiveEqualsStore(engine, market.at(-1)!);
      expect(await engine.call('chain::market::trades', { limit: 1000 })).toHaveLength(market.flatMap((b) => b.trades).length);
      expect(await engine.call('chain::market::ingestion', { limit: 300 })).toHaveLength(12);
      expect(await engine.call('chain::market::token', {})).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

describe('live answers under retention', () => {
  it('a pair whose only trade is older than the retention cut is no longer listed, from memory as from the store', async () => {
    const market = [...generateBlocks({ minutes: 7, txPerBlock: 4, seed: 'retained' })];
    // one trade of a pair that never trades again, in the first block: older than the cut by the end
    const first = market[0]!.block;
    const template = market.find((b) => b.trades.length > 0)!.trades[0]!;
    const rare = { ...template, slot: first.slot, timestamp: first.timestamp, base: UNKNOWN_MINT, quote: USDC_MINT };
    market[0] = { ...market[0]!, trades: [...market[0]!.trades, rare] };
    const engine = await createEngine({ retain: '5m' });
    try {
      await engine.ingest(rows(market.slice(0, 1)));
      const query: Query = ['chain::market::trades', { base: UNKNOWN_MINT }];
      expect(await engine.call(...query)).toHaveLength(1);
      for (let i = 1; i < market.length; i += 100) await engine.ingest(rows(market.slice(i, i + 100)));
      await expectLiveEqualsStore(engine, market.at(-1)!, [...QUERIES, query]);
      expect(await engine.call(...query)).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});
