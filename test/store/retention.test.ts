/**
 * The `retain` option: an engine that prunes its history answers every live query exactly as an
 * engine that keeps everything (the oracle here), answers as-of queries inside the held span the
 * same way, and refuses (-32602 on `at`) the as-of queries that would need pruned data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { RpcError } from '../../src/rpc/errors.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { LAW_SUBSCRIPTIONS } from '../stream/law.js';

const MINUTE = 60_000_000_000n;
const blocks = [...generateBlocks({ minutes: 9, txPerBlock: 12, seed: 'retention' })];
const first = blocks[0]!.block.timestamp;
const newest = blocks.at(-1)!.block.timestamp;

let kept: Engine;
let pruned: Engine;
beforeAll(async () => {
  kept = await createEngine({ minSamples: 10 });
  pruned = await createEngine({ minSamples: 10, retain: '5m' });
  for (const engine of [kept, pruned]) {
    await engine.ingest({ tokens: generateTokens() });
    for (let i = 0; i < blocks.length; i += 25) {
      const part = blocks.slice(i, i + 25);
      await engine.ingest({ blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades) });
    }
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([kept?.close(), pruned?.close()]);
});

/** Answers compared across engines: ingestion timings (wall clock) differ by nature, their slots do not. */
const answer = async (engine: Engine, method: string, params: Record<string, unknown>) => {
  const records = (await engine.call(method, params)) as Record<string, unknown>[];
  return method === 'chain::market::ingestion' ? records.map(({ took, started_at, ...rest }) => rest) : records;
};

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
};

describe('retain', () => {
  it('live answers are those of an engine that keeps everything, for every method', async () => {
    for (const [method, params] of LAW_SUBSCRIPTIONS) {
      const query = { ...params, limit: 1 };
      delete (query as Record<string, unknown>).from;
      delete (query as Record<string, unknown>).to;
      if (method === 'chain::market::token') delete (query as Record<string, unknown>).limit;
      expect(await answer(pruned, method, query), method).toEqual(await answer(kept, method, query));
    }
    // lists that stay inside the held span (100 blocks = 40 s) are whole
    for (const method of ['chain::priorityfee::block', 'chain::market::ingestion', 'chain::market::trades']) {
      expect(await answer(pruned, method, { limit: 100 }), method).toEqual(await answer(kept, method, { limit: 100 }));
    }
  });

  it('as-of answers inside the held span are exact; those that need pruned data are refused on `at`', async () => {
    const inside = encodeTimestamp(newest - 2n * MINUTE);
    for (const [method, params] of LAW_SUBSCRIPTIONS) {
      if (method === 'chain::market::token' || (params.window !== undefined && params.window !== '10s' && params.window !== '30s' && params.window !== '1m')) continue;
      // limit 1: a longer list reaches back before the cut, where a pruned engine's list ends
      const query = { ...params, limit: 1, at: inside };
      delete (query as Record<string, unknown>).from;
      delete (query as Record<string, unknown>).to;
      expect(await answer(pruned, method, query), `${method} at ${inside}`).toEqual(await answer(kept, method, query));
    }
    const old = encodeTimestamp(first + 2n * MINUTE);
    const error = await refusal(pruned.call('chain::priorityfee::block', { at: old }));
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ param: 'at' });
    expect(error.message).toMatch(/keeps only the history from .* \(history before it was pruned by the retain option\)/);
    expect(await kept.call('chain::priorityfee::block', { at: old, limit: 1 })).toHaveLength(1);
    // the window counts: 2 minutes before the newest block is held, but not the 5 minutes before that
    await refusal(pruned.call('chain::market::volume', { window: '5m', at: inside }));
    expect(await pruned.call('chain::market::volume', { window: '1m', at: inside })).toEqual(await kept.call('chain::market::volume', { window: '1m', at: inside }));
  });

  it('rejects a retention shorter than 5 minutes or not a duration', async () => {
    await expect(createEngine({ retain: '1m' })).rejects.toThrow(/at least 300 s/);
    await expect(createEngine({ retain: 'soon' })).rejects.toThrow(/not a duration/);
    await expect(createEngine({ retain: -5 })).rejects.toThrow(/positive integer/);
  });

  it('a replay prunes with its own retention while it runs, and no further once it has ended', async () => {
    const engine = await createEngine({ minSamples: 10 });
    try {
      const asInput = (b: (typeof blocks)[number]) => ({ blocks: [b.block], transactions: b.transactions, trades: b.trades });
      const split = blocks.findIndex((b) => b.block.timestamp >= first + 7n * MINUTE);
      expect(() => engine.replay([], { retain: '1m' })).toThrow(/at least 300 s/);
      await engine.ingest({ tokens: generateTokens() });
      const report = await engine.replay(blocks.slice(0, split).map(asInput), { speed: Infinity, retain: '5m' });
      expect(report.blocks).toBe(split);
      const end = blocks[split - 1]!.block.timestamp;
      // pruned up to (end - 5m) rounded down to the minute
      await refusal(engine.call('chain::priorityfee::block', { at: encodeTimestamp(end - 6n * MINUTE - 1n) }));
      const held = { at: encodeTimestamp(end - 4n * MINUTE), limit: 1 };
      expect(await engine.call('chain::priorityfee::block', held)).toEqual(await kept.call('chain::priorityfee::block', held));
      // the engine itself keeps everything: blocks ingested after the replay prune nothing more
      const rest = blocks.slice(split);
      await engine.ingest({ blocks: rest.map((b) => b.block), transactions: rest.flatMap((b) => b.transactions), trades: rest.flatMap((b) => b.trades) });
      expect(await engine.call('chain::priorityfee::block', held)).toEqual(await kept.call('chain::priorityfee::block', held));
    } finally {
      await engine.close();
    }
  });

  it('an engine that has not pruned yet refuses nothing', async () => {
    const engine = await createEngine({ minSamples: 10, retain: '1h' });
    try {
      const part = blocks.slice(0, 50);
      await engine.ingest({ tokens: generateTokens(), blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades) });
      expect(await engine.call('chain::market::volume', { window: '24h', at: encodeTimestamp(first + 1_000_000_000n) })).toBeDefined();
    } finally {
      await engine.close();
    }
  });
});
