/**
 * The `retain` option: an engine that prunes its transactions answers every live query, and every
 * as-of query that needs no pruned transaction, exactly as an engine that keeps everything (the
 * oracle here); the as-of queries that would need pruned transactions are refused (-32602 on `at`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { RpcError } from '../../src/rpc/errors.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { windowNanos } from '../../src/schema/time.js';
import { LAW_SUBSCRIPTIONS } from '../stream/law.js';

const MINUTE = 60_000_000_000n;
const blocks = [...generateBlocks({ minutes: 9, txPerBlock: 12, seed: 'retention' })];
const first = blocks[0]!.block.timestamp;
const newest = blocks.at(-1)!.block.timestamp;
const asInput = (part: readonly GeneratedBlock[]) => ({
  blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades),
});

let kept: Engine;
let pruned: Engine;
beforeAll(async () => {
  kept = await createEngine({ minSamples: 10 });
  pruned = await createEngine({ minSamples: 10, retain: '5m' });
  for (const engine of [kept, pruned]) {
    await engine.ingest({ tokens: generateTokens() });
    for (let i = 0; i < blocks.length; i += 25) await engine.ingest(asInput(blocks.slice(i, i + 25)));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([kept?.close(), pruned?.close()]);
});

/** Answers compared across engines: ingestion timings (wall clock) differ by nature, their slots do not. */
async function answer(engine: Engine, method: string, params: Record<string, unknown>): Promise<unknown[]> {
  const records = (await engine.call(method, params)) as Record<string, unknown>[];
  return method === 'chain::market::ingestion' ? records.map(({ took, started_at, ...rest }) => rest) : records;
}

/** Every method with the law's params (stream ones included), as a query with the largest limit. */
const QUERIES = LAW_SUBSCRIPTIONS.map(([method, params]) => [method, { ...params, ...(method === 'chain::market::token' ? {} : { limit: 1000 }) }] as const);
const limited = (method: string, params: Record<string, unknown>) => (method === 'chain::market::ingestion' ? { ...params, limit: 300 } : params);

async function refusal(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe('retain', () => {
  it('live answers, whole lists included, are those of an engine that keeps everything', async () => {
    for (const [method, params] of QUERIES) {
      const query = limited(method, params);
      expect(await answer(pruned, method, query), method).toEqual(await answer(kept, method, query));
    }
  });

  it('as-of answers are exact where they need no pruned transaction, and refused on `at` where they would', async () => {
    // 9 minutes ingested, 5 kept: the transactions from (newest - 5m) rounded down to the minute on are held
    const cut = newest - 5n * MINUTE - ((newest - 5n * MINUTE) % MINUTE);
    for (const at of [first + 30_000_000_000n, newest - 2n * MINUTE, newest + 1n]) {
      for (const [method, params] of QUERIES) {
        const query = { ...limited(method, params), at: encodeTimestamp(at) };
        // the two methods whose as-of answer reads transactions: the fee window's start, the top list's 5 minutes
        const from = method === 'chain::priorityfee::fee' ? at - 1n - ((at - 1n) % windowNanos(String(params.window)))
          : method === 'chain::priorityfee::top_txs' ? at - 5n * MINUTE : undefined;
        const needsTransactions = from !== undefined && from < cut;
        if (!needsTransactions) {
          expect(await answer(pruned, method, query), `${method} at ${query.at}`).toEqual(await answer(kept, method, query));
          continue;
        }
        const error = await refusal(pruned.call(method, query));
        expect(error.code).toBe(-32602);
        expect(error.data).toEqual({ param: 'at' });
        expect(error.message).toMatch(/needs the transactions from .* but those before .* were pruned \(retain option\)/);
        expect(await kept.call(method, query)).toBeDefined();
      }
    }
  });

  it('rejects a retention shorter than 5 minutes or not a duration', async () => {
    await expect(createEngine({ retain: '1m' })).rejects.toThrow(/at least 300 s/);
    await expect(createEngine({ retain: 'soon' })).rejects.toThrow(/not a duration/);
    await expect(createEngine({ retain: -5 })).rejects.toThrow(/positive integer/);
  });

  it('a replay prunes with its own retention while it runs, and no further once it has ended', async () => {
    const engine = await createEngine({ minSamples: 10 });
    try {
      const split = blocks.findIndex((b) => b.block.timestamp >= first + 7n * MINUTE);
      expect(() => engine.replay([], { retain: '1m' })).toThrow(/at least 300 s/);
      await engine.ingest({ tokens: generateTokens() });
      const report = await engine.replay(blocks.slice(0, split).map((b) => asInput([b])), { speed: Infinity, retain: '5m' });
      expect(report.blocks).toBe(split);
      const end = blocks[split - 1]!.block.timestamp;
      // pruned up to (end - 5m) rounded down to the minute: a 1m fee window 6 minutes back is gone, 4 minutes back is held
      const old = { window: '1m', limit: 1, at: encodeTimestamp(end - 6n * MINUTE) };
      const held = { window: '1m', limit: 1, at: encodeTimestamp(end - 4n * MINUTE + 1n) };
      await refusal(engine.call('chain::priorityfee::fee', old));
      expect(await engine.call('chain::priorityfee::fee', held)).toEqual(await kept.call('chain::priorityfee::fee', held));
      // the engine itself keeps everything: blocks ingested after the replay prune nothing more
      await engine.ingest(asInput(blocks.slice(split)));
      expect(await engine.call('chain::priorityfee::fee', held)).toEqual(await kept.call('chain::priorityfee::fee', held));
    } finally {
      await engine.close();
    }
  });
});
