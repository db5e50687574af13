/**
 * History computed when asked equals history computed at ingest. The eager engine has every method
 * and every window subscribed before its first block, so everything is made as blocks arrive; the
 * lazy engines are asked only after their data is in, in different orders (the largest limit
 * first; a limit of 1 first and then more; as-of first, far back; live only after a subscription
 * made half-way), and with retention (which makes the history before it prunes). Every method and
 * window, live and as of several times, must answer the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { METHOD_TABLE } from '../../src/methods/index.js';
import { busiestAccounts } from '../../src/generate/accounts.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { cutAfter, heldPart } from '../helpers/retention.js';
import { MARKET_HISTORY } from '../oracle/oracle.js';

const blocks = [...generateBlocks({ minutes: 6.5, txPerBlock: 8, seed: 'lazy-history' })];
const input = (part: readonly GeneratedBlock[]) => ({
  blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades),
});
const half = Math.floor(blocks.length / 2);
/** As-of times: early (inside the first window of most lengths), late, past the end. */
const AT = [blocks[12]!, blocks[blocks.length - 40]!].map((b) => encodeTimestamp(b.block.timestamp + 1n))
  .concat([encodeTimestamp(blocks.at(-1)!.block.timestamp + 1_000_000_000n)]);

/** The busiest write-locked accounts, for the local fee markets. */
const HOT = busiestAccounts(blocks, 3);

/**
 * Every method with each of its windows (one entry without a window for the others), with its
 * largest limit; the local fee markets with the busiest accounts.
 */
const CALLS: [string, Record<string, unknown>][] = [...METHOD_TABLE.values()].flatMap((m) => {
  const spec = m.params as Record<string, { kind?: string; values?: readonly string[]; max?: number }>;
  const limit = spec.limit?.max === undefined ? {} : { limit: spec.limit.max };
  const accounts = spec.accounts === undefined ? {} : { accounts: HOT };
  const windows = spec.window?.values ?? [undefined];
  return windows.map((w) => [m.name, { ...limit, ...accounts, ...(w === undefined ? {} : { window: w }) }] as [string, Record<string, unknown>]);
});

async function feed(engine: Engine, part: readonly GeneratedBlock[]): Promise<void> {
  for (let i = 0; i < part.length; i += 30) await engine.ingest(input(part.slice(i, i + 30)));
}

/** Answers whose fields differ by nature between engines (wall-clock timings) are compared without them. */
async function answer(engine: Engine, method: string, params: Record<string, unknown>): Promise<unknown> {
  const records = (await engine.call(method as never, params as never)) as Record<string, unknown>[];
  return method === 'chain::market::ingestion' ? records.map(({ took, started_at, ...rest }) => rest) : records;
}

let eager: Engine;
const engines: Engine[] = [];
beforeAll(async () => {
  eager = await createEngine({ minSamples: 10 });
  engines.push(eager);
  for (const [method, params] of CALLS) {
    const { limit, ...stream } = params;
    await eager.subscribe(method as never, stream as never, () => undefined);
  }
  await eager.ingest({ tokens: generateTokens() });
  await feed(eager, blocks);
}, 120_000);
afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
});

async function lazyEngine(options: { retain?: string } = {}): Promise<Engine> {
  const engine = await createEngine({ minSamples: 10, ...options });
  engines.push(engine);
  await engine.ingest({ tokens: generateTokens() });
  await feed(engine, blocks);
  return engine;
}

/** Every call live and as of every AT, in that order or with the as-of ones first. */
async function expectSameAsEager(engine: Engine, asOfFirst = false): Promise<void> {
  const live = CALLS.map(([m, p]) => [m, p] as const);
  const asOf = CALLS.flatMap(([m, p]) => AT.map((at) => [m, { ...p, at }] as const));
  for (const [method, params] of asOfFirst ? [...asOf, ...live] : [...live, ...asOf]) {
    expect(await answer(engine, method, params), `${method} ${JSON.stringify(params)}`).toEqual(await answer(eager, method, params));
  }
}

describe('history computed when asked', () => {
  it('equals the eager answers, asked live first with the largest limits', async () => {
    await expectSameAsEager(await lazyEngine());
  });

  it('equals them asked as of the past first', async () => {
    await expectSameAsEager(await lazyEngine(), true);
  });

  it('equals them when a limit of 1 comes first and more is asked later', async () => {
    const engine = await lazyEngine();
    for (const [method, params] of CALLS) {
      if (params.limit === undefined) continue;
      expect(await answer(engine, method, { ...params, limit: 1 })).toEqual(await answer(eager, method, { ...params, limit: 1 }));
    }
    await expectSameAsEager(engine);
  });

  it('equals them under retention, which makes the history before it prunes', async () => {
    const engine = await lazyEngine({ retain: '5m' });
    // lists end at the cut; the market's are checked in test/store/retention.test.ts (no window was live when it pruned)
    const cut = cutAfter(blocks.at(-1)!.block.timestamp, 5n * 60_000_000_000n);
    const kept = CALLS.filter(([method]) => !MARKET_HISTORY.has(method));
    for (const [method, params] of kept) {
      const full = (await answer(eager, method, params)) as Record<string, unknown>[];
      expect(await answer(engine, method, params), method).toEqual(heldPart(method, full, cut));
    }
  });

  it('a subscription made half-way pushes what the eager engine pushed for the same blocks', async () => {
    const engine = await createEngine({ minSamples: 10 });
    engines.push(engine);
    await engine.ingest({ tokens: generateTokens() });
    await feed(engine, blocks.slice(0, half));
    const pushes: unknown[] = [];
    await engine.subscribe('chain::priorityfee::recommendation', { window: '1m' }, (push) => void pushes.push(push.result));
    await feed(engine, blocks.slice(half));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pushes.length).toBe(blocks.length - half);
    const newest = await engine.call('chain::priorityfee::recommendation', { window: '1m', limit: 1 });
    expect(pushes.at(-1)).toEqual(newest);
    expect(newest).toEqual(await eager.call('chain::priorityfee::recommendation', { window: '1m', limit: 1 }));
    await expectSameAsEager(engine);
  });
});
