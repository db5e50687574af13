/**
 * DuckDB-WASM starts when something first needs it (src/store/store.ts): a load, every live answer
 * and every stream come from memory, so start-up to the first answer never waits for the database.
 * An engine whose database never opens answers every method live, at its largest limit, the same
 * as an engine reading its history from its database (as of after the newest block), and pushes
 * every stream; an engine whose database opens normally does not start it for a short load and its
 * first answers, only for its first as-of answer that memory does not hold (or, in the background,
 * past the store's start threshold of writes). Block fees as of any time come from memory until the
 * database starts, and equal what it answers once it holds them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busiestAccounts } from '../../src/generate/accounts.js';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngineOn, type Engine, type EngineOptions } from '../../src/engine.js';
import { METHOD_TABLE } from '../../src/methods/index.js';
import { nodePlatform } from '../../src/platform/node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { cutAfter, heldPart } from '../helpers/retention.js';

const blocks = [...generateBlocks({ minutes: 3, txPerBlock: 8, seed: 'lazy-database' })];
const PAST_THE_END = encodeTimestamp(blocks.at(-1)!.block.timestamp + 1_000_000_000n);
const HOT = busiestAccounts(blocks, 3);

/** Every method with each of its windows, at its largest limit (the local fee markets with the busiest accounts). */
const CALLS: [string, Record<string, unknown>][] = [...METHOD_TABLE.values()].flatMap((m) => {
  const spec = m.params as Record<string, { values?: readonly string[]; max?: number }>;
  const limit = spec.limit?.max === undefined ? {} : { limit: spec.limit.max };
  const accounts = spec.accounts === undefined ? {} : { accounts: HOT };
  return (spec.window?.values ?? [undefined]).map((w) => [m.name, { ...limit, ...accounts, ...(w === undefined ? {} : { window: w }) }] as [string, Record<string, unknown>]);
});

async function feed(engine: Engine, part: readonly GeneratedBlock[]): Promise<void> {
  await engine.ingest({ tokens: generateTokens() });
  for (let i = 0; i < part.length; i += 30) {
    const chunk = part.slice(i, i + 30);
    await engine.ingest({ blocks: chunk.map((b) => b.block), transactions: chunk.flatMap((b) => b.transactions), trades: chunk.flatMap((b) => b.trades) });
  }
}

/** Records without the wall-clock fields of ingestion timings. */
async function answer(engine: Engine, method: string, params: Record<string, unknown>): Promise<unknown> {
  const records = (await engine.call(method as never, params as never)) as Record<string, unknown>[];
  return method === 'chain::market::ingestion' ? records.map(({ took, started_at, ...rest }) => rest) : records;
}

/** An engine on Node whose database opens through `openSql`, counting the times it was asked to. */
async function engineWith(openSql: () => ReturnType<typeof nodePlatform.openSql>, options: EngineOptions = {}) {
  let asked = 0;
  const engine = await createEngineOn({ ...nodePlatform, openSql: () => (asked++, openSql()) }, { minSamples: 10, ...options });
  return { engine, asked: () => asked };
}

const engines: Engine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
});

describe('no live answer waits for the database', () => {
  let stored: Awaited<ReturnType<typeof engineWith>>;
  beforeAll(async () => {
    stored = await engineWith(() => nodePlatform.openSql());
    engines.push(stored.engine);
    await feed(stored.engine, blocks);
  }, 60_000);

  it('an engine whose database never opens loads, pushes every stream and answers every method live as the stored history does', async () => {
    let fail!: (error: Error) => void;
    const { engine, asked } = await engineWith(() => new Promise((_, reject) => (fail = reject)));
    const pushes = new Map<string, number>();
    for (const [method, params] of CALLS) {
      const { limit, ...stream } = params;
      const key = `${method} ${JSON.stringify(stream)}`;
      if (pushes.has(key)) continue;
      pushes.set(key, 0);
      await engine.subscribe(method as never, stream as never, () => void pushes.set(key, pushes.get(key)! + 1));
    }
    await feed(engine, blocks.slice(0, 30));
    // an as-of answer memory does not hold asks the database to start, which never opens: it waits, nothing else does
    const waiting = engine.call('chain::market::ingestion', { at: PAST_THE_END });
    waiting.catch(() => undefined);
    await feed(engine, blocks.slice(30));
    expect(asked()).toBe(1);
    for (const [method, params] of CALLS) {
      const live = await answer(engine, method, params);
      expect(live, `${method} ${JSON.stringify(params)}`).toEqual(await answer(stored.engine, method, { ...params, at: PAST_THE_END }));
      expect((live as unknown[]).length, method).toBeGreaterThan(0);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const [key, count] of pushes) expect(count, key).toBeGreaterThan(0);
    fail(new Error('closed before it opened'));
    await expect(waiting).rejects.toThrow('internal error'); // the failed open, as -32603
    await engine.close();
  });

  it('an engine starts its database for the first as-of answer, not for its load or live answers', async () => {
    const { engine, asked } = await engineWith(() => nodePlatform.openSql());
    engines.push(engine);
    await feed(engine, blocks);
    // every method and window at its default limit: the first answers a user asks
    for (const [method, { limit, ...params }] of CALLS) await engine.call(method as never, params as never);
    expect(asked()).toBe(0);
    // block fees as of any time: memory holds them all while the database has not started
    expect(await answer(engine, 'chain::priorityfee::block', { limit: 1000, at: PAST_THE_END }))
      .toEqual(await answer(stored.engine, 'chain::priorityfee::block', { limit: 1000 }));
    expect(asked()).toBe(0);
    // and fee windows, the top list and recommendations: the blocks and transactions are resident, the records all held
    for (const [method, params] of [
      ['chain::priorityfee::fee', { window: '1m', limit: 1000 }], ['chain::priorityfee::top_txs', { window: '5m', limit: 1000 }],
      ['chain::priorityfee::recommendation', { window: '1m', limit: 1000 }],
    ] as const) {
      expect(await answer(engine, method, { ...params, at: PAST_THE_END }), method).toEqual(await answer(stored.engine, method, params));
    }
    expect(asked()).toBe(0);
    // ingestion timings as of a time are read from the database
    expect(await answer(engine, 'chain::market::ingestion', { limit: 300, at: PAST_THE_END }))
      .toHaveLength(Math.min(300, blocks.length));
    expect(asked()).toBe(1);
  });
});

describe('priority fees as of a time', () => {
  // more blocks than memory keeps once the database holds them (1,000)
  const many = [...generateBlocks({ minutes: 8, txPerBlock: 4, seed: 'block-fees-as-of' })];
  const times = many.map((b) => b.block.timestamp);
  const hot = [...new Set(many.slice(0, 50).flatMap((b) => b.transactions.flatMap((t) => t.writable_accounts ?? [])))].slice(0, 3);
  if (hot.length === 0) throw new Error('the generated blocks lock no accounts');

  it('come from memory while the database has not started, equal to the database\'s answers once it holds them', async () => {
    const fromMemory = await engineWith(() => nodePlatform.openSql());
    const fromDatabase = await engineWith(() => nodePlatform.openSql());
    engines.push(fromMemory.engine, fromDatabase.engine);
    // an as-of answer memory cannot give starts the database after the first blocks: memory then keeps the newest 1,000
    await feed(fromDatabase.engine, many.slice(0, 30));
    await fromDatabase.engine.call('chain::market::ingestion', { at: encodeTimestamp(times[29]!) });
    expect(fromDatabase.asked()).toBe(1);
    await feed(fromDatabase.engine, many.slice(30));
    await feed(fromMemory.engine, many);
    expect(many.length).toBeGreaterThan(1000);
    // at the first block, between and on block times, early (read from the database) and late (from memory), past the end
    const ats = [times[0]! - 1n, times[0]!, times[3]! + 1n, times[150]!, times[400]! + 7n, times[1000]!, times.at(-1)!, times.at(-1)! + 1n];
    for (const at of ats) {
      for (const limit of [1, 7, 500, 1000]) {
        const params = { limit, at: encodeTimestamp(at) };
        expect(await fromMemory.engine.call('chain::priorityfee::block', params), `${at} ${limit}`)
          .toEqual(await fromDatabase.engine.call('chain::priorityfee::block', params));
      }
      // fee windows, the top list and recommendations as of the same times. The second engine's recommendation points come
      // from its database; its fee windows and top list from memory too (fewer than 1,000 closed windows, resident
      // transactions), so for those this shows the database is never asked: their values are checked against an
      // oracle of the test's own rows in test/store/retention.test.ts (expectedAsOf)
      for (const [method, params] of [
        ['chain::priorityfee::fee', { window: '1m', limit: 20 }], ['chain::priorityfee::fee', { window: '5m', limit: 3 }],
        ['chain::priorityfee::top_txs', { window: '5m', limit: 100 }],
        ['chain::priorityfee::recommendation', { window: '1m', limit: 7 }], ['chain::priorityfee::recommendation', { window: '5m', limit: 1000 }],
        // the local fee markets' lookback too: its blocks from memory, their accounts from the resident transactions
        ['chain::priorityfee::estimate', { accounts: hot, lookback_slots: 150 }], ['chain::priorityfee::recent', { accounts: hot, lookback_slots: 20 }],
      ] as const) {
        const query = { ...params, at: encodeTimestamp(at) };
        expect(await fromMemory.engine.call(method, query), `${method} ${at}`).toEqual(await fromDatabase.engine.call(method, query));
      }
    }
    expect(fromMemory.asked()).toBe(0);
  }, 60_000);

  it('retention prunes the resident transactions as it goes without starting the database', async () => {
    const retained = await engineWith(() => nodePlatform.openSql(), { retain: '5m' });
    engines.push(retained.engine);
    await feed(retained.engine, many);
    // 8 minutes fed, 5 kept: an answer over the first minute's transactions is refused, as it was when pruning read SQL
    const early = { window: '5m' as const, at: encodeTimestamp(times[60]!) };
    expect(retained.asked()).toBe(0);
    await expect(retained.engine.call('chain::priorityfee::top_txs', early)).rejects.toThrow(/were pruned \(retain option\)/);
    // the block fees went with their transactions; those after the cut answer from memory
    await expect(retained.engine.call('chain::priorityfee::block', { limit: 5, at: encodeTimestamp(times[60]!) })).rejects.toThrow(/needs the records/);
    expect(await retained.engine.call('chain::priorityfee::block', { limit: 5, at: encodeTimestamp(times.at(-60)!) }))
      .toHaveLength(5);
    expect(retained.asked()).toBe(0);
  }, 60_000);

  it('under retention, a database started early lists the records from the cut on, and a lookback reaching behind it is refused', async () => {
    // 16 minutes, 10 kept: the retained span holds more blocks than memory keeps once the database holds them (1,000)
    const longer = [...generateBlocks({ minutes: 16, txPerBlock: 2, seed: 'retention-database' })];
    const at0 = longer.map((b) => b.block.timestamp);
    const locked = busiestAccounts(longer, 3);
    const kept = await engineWith(() => nodePlatform.openSql());
    const retained = await engineWith(() => nodePlatform.openSql(), { retain: '10m' });
    engines.push(kept.engine, retained.engine);
    await feed(retained.engine, longer.slice(0, 30));
    await retained.engine.call('chain::market::ingestion', { at: encodeTimestamp(at0[29]!) }); // the database starts
    expect(retained.asked()).toBe(1);
    await feed(retained.engine, longer.slice(30));
    await feed(kept.engine, longer);
    const cut = cutAfter(at0.at(-1)!, 10n * 60_000_000_000n);
    const afterCut = at0.findIndex((t) => t >= cut);
    expect(afterCut + 100).toBeLessThan(longer.length - 1000);
    // as of a time 100 blocks after the cut, before the newest 1,000: read from the database
    const at = encodeTimestamp(at0[afterCut + 100]! + 1n);
    for (const [method, params] of [
      ['chain::priorityfee::block', { limit: 1000 }], ['chain::market::ingestion', { limit: 300 }],
      ['chain::priorityfee::fee', { window: '1m', limit: 1000 }], ['chain::priorityfee::recommendation', { window: '1m', limit: 1000 }],
    ] as const) {
      const full = (await answer(kept.engine, method, { ...params, at })) as Record<string, unknown>[];
      const held = heldPart(method, full, cut);
      expect(held.length, method).toBeLessThan(full.length);
      expect(held.length, method).toBeGreaterThan(0);
      expect(await answer(retained.engine, method, { ...params, at }), method).toEqual(held);
    }
    // the newest 150 blocks before it reach behind the cut: refused, not answered from the 101 after it
    const estimate = { accounts: locked, lookback_slots: 150, at };
    await expect(retained.engine.call('chain::priorityfee::estimate', estimate)).rejects.toThrow(/needs the transactions before .* were pruned/);
    expect(await retained.engine.call('chain::priorityfee::estimate', { ...estimate, lookback_slots: 50 }))
      .toEqual(await kept.engine.call('chain::priorityfee::estimate', { ...estimate, lookback_slots: 50 }));
  }, 60_000);
});
