/**
 * The `retain` option: an engine that prunes its history answers every query as an engine that keeps
 * everything (the oracle here) does, cut at the horizon (docs/semantics.md, Retention): the market's
 * entries and the method records from the cut on; the as-of queries that would need pruned
 * transactions, records or market blocks are refused (-32602 on `at`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { writeDump } from '../../src/generate/write-dump.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { METHOD_TABLE } from '../../src/methods/index.js';
import { RpcError } from '../../src/rpc/errors.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { windowNanos } from '../../src/schema/time.js';
import { collect } from '../helpers/fee-oracle.js';
import { cutAfter, heldPart, nsOf } from '../helpers/retention.js';
import { RECORD_LISTS } from '../oracle/oracle.js';
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
const QUERIES = LAW_SUBSCRIPTIONS.map(([method, params]) => [method, { ...params, ...(METHOD_TABLE.get(method)!.params.limit ? { limit: 1000 } : {}) }] as const);
const limited = (method: string, params: Record<string, unknown>) => (method === 'chain::market::ingestion' ? { ...params, limit: 300 } : params);

const blocksBetween = (from: bigint, to: bigint, of: readonly GeneratedBlock[] = blocks) => of.filter((b) => b.block.timestamp >= from && b.block.timestamp < to);

/**
 * What the engine that keeps everything must answer where the pruned one refuses, from the test's own
 * rows: for the fee method each 1m window (newest first) with the counts of its blocks before `at`;
 * for top_txs the signatures of the fee-paying transactions of the 5 minutes up to the newest block
 * before `at`, highest fee first (ties: newer slot, then higher index), at most 100.
 */
function expectedAsOf(method: string, at: bigint, of: readonly GeneratedBlock[] = blocks): unknown {
  if (method === 'chain::priorityfee::fee') {
    const starts = [...new Set(blocksBetween(0n, at, of).map((b) => b.block.timestamp - (b.block.timestamp % MINUTE)))].reverse();
    return starts.map((start) => {
      const c = collect(blocksBetween(start, start + MINUTE < at ? start + MINUTE : at, of));
      return {
        window_start: encodeTimestamp(start), window_end: encodeTimestamp(start + MINUTE),
        tx_count: String(c.txCount), total_tx_count: String(c.total), total_priority_fees: String(c.fees),
      };
    });
  }
  const end = blocksBetween(0n, at, of).at(-1)!.block.timestamp + 1n;
  const fee = (tx: GeneratedBlock['transactions'][number]) => tx.priority_fee ?? (tx.compute_unit_price * BigInt(tx.compute_unit_limit) + 999_999n) / 1_000_000n;
  const candidates = blocksBetween(end - 5n * MINUTE, end, of).flatMap((b) => b.transactions).filter((tx) => !tx.is_vote && tx.compute_unit_price > 0n);
  candidates.sort((a, b) => (fee(a) !== fee(b) ? (fee(a) > fee(b) ? -1 : 1) : a.slot !== b.slot ? (a.slot > b.slot ? -1 : 1) : b.index - a.index));
  return candidates.slice(0, 100).map((tx) => tx.signature);
}

/** The fields of an answer that expectedAsOf gives. */
function asOfFields(method: string, records: Record<string, unknown>[]): unknown {
  if (method === 'chain::priorityfee::top_txs') return records.map((r) => r.signature);
  return records.map(({ window_start, window_end, tx_count, total_tx_count, total_priority_fees }) => ({ window_start, window_end, tx_count, total_tx_count, total_priority_fees }));
}

async function refusal(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

/** 9 minutes ingested, 5 kept: history from (newest - 5m) rounded down to the minute on is held. */
const CUT = cutAfter(newest, 5n * MINUTE);
/** Why the pruned engine refuses a query as of `at` (what it would need), or undefined when it answers. */
function prunedNeed(method: string, params: Record<string, unknown>, at: bigint): string | undefined {
  const width = params.window === undefined ? 0n : windowNanos(String(params.window));
  if (method.startsWith('chain::market::') && method !== 'chain::market::token' && method !== 'chain::market::ingestion' && at <= CUT) return 'history before';
  if (RECORD_LISTS.has(method) && at <= CUT) return 'records';
  if (method === 'chain::market::ohlcv' && at - 1n - ((at - 1n) % width) < CUT) return 'market blocks';
  if (['chain::market::volume', 'chain::market::vwap', 'chain::market::twap'].includes(method) && at - width < CUT) return 'market blocks';
  // the methods whose as-of answer reads transactions: the fee window's start, the top list's 5 minutes,
  // the local fee markets' lookback (the newest lookback_slots blocks before `at`; every block here has transactions)
  const from = method === 'chain::priorityfee::fee' ? at - 1n - ((at - 1n) % width)
    : method === 'chain::priorityfee::top_txs' ? at - 5n * MINUTE
      : LOCAL_FEES.includes(method) ? blocksBetween(0n, at).at(-Number(params.lookback_slots ?? 150))?.block.timestamp ?? blocks[0]!.block.timestamp
        : undefined;
  return from !== undefined && from < CUT ? 'transactions' : undefined;
}

/** The local fee markets: their as-of answers are checked against an oracle in test/priorityfee/local-fees.test.ts. */
const LOCAL_FEES = ['chain::priorityfee::estimate', 'chain::priorityfee::recent'];

describe('retain', () => {
  it('live answers are those of an engine that keeps everything, lists cut at the horizon', async () => {
    const cut = new Set<string>();
    for (const [method, params] of QUERIES) {
      const query = limited(method, params);
      const full = (await answer(kept, method, query)) as Record<string, unknown>[];
      const held = heldPart(method, full, CUT);
      expect(await answer(pruned, method, query), method).toEqual(held);
      if (held.length < full.length) cut.add(method);
    }
    // the market's and the records' lists did reach back past the cut, else the check above proves nothing
    expect(cut.size, [...cut].join()).toBeGreaterThanOrEqual(7);
    for (const method of [...RECORD_LISTS].filter((m) => m !== 'chain::market::ingestion')) expect(cut, method).toContain(method);
  });

  it('a live trailing window wider than the history held is refused on `window`, as its stream is', async () => {
    for (const method of ['chain::market::volume', 'chain::market::vwap', 'chain::market::twap']) {
      const error = await refusal(pruned.call(method, { window: '1h' }));
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ param: 'window' });
      expect(error.message).toMatch(/needs the market blocks from .* but those before .* were pruned \(retain option\)/);
      const stream = await refusal(pruned.subscribe(method, { window: '1h' }, () => undefined));
      expect(stream.data).toEqual({ param: 'window' });
    }
    // within the history held (5 minutes here): answered
    expect((await pruned.call('chain::market::volume', { window: '5m' })).length).toBeGreaterThan(0);
  });

  it('as-of answers are exact where they need nothing pruned, and refused on `at` where they would', async () => {
    const refusedFor = new Map<string, number>();
    for (const at of [first + 30_000_000_000n, CUT, CUT + 20_000_000_000n, newest - 2n * MINUTE, newest + 1n]) {
      for (const [method, params] of QUERIES) {
        const query = { ...limited(method, params), at: encodeTimestamp(at) };
        const need = prunedNeed(method, params, at);
        if (need === undefined) {
          const full = (await answer(kept, method, query)) as Record<string, unknown>[];
          expect(await answer(pruned, method, query), `${method} at ${query.at}`).toEqual(heldPart(method, full, CUT));
          continue;
        }
        const error = await refusal(pruned.call(method, query));
        expect(error.code).toBe(-32602);
        expect(error.data).toEqual({ param: 'at' });
        expect(error.message).toMatch(new RegExp(`needs the (${need === 'history before' ? 'market history|trades' : need}) .* but those before .* were pruned \\(retain option\\)`));
        refusedFor.set(need, (refusedFor.get(need) ?? 0) + 1);
        if (need !== 'transactions') continue;
        const full = (await kept.call(method, query)) as Record<string, unknown>[];
        expect(full.length, `${method} at ${query.at}`).toBeGreaterThan(0);
        if (LOCAL_FEES.includes(method)) continue;
        expect(asOfFields(method, full), `${method} at ${query.at}`).toEqual(expectedAsOf(method, at));
      }
    }
    // every kind of refusal happens, else the checks above prove nothing
    expect(refusedFor.get('transactions')).toBeGreaterThanOrEqual(2);
    expect(refusedFor.get('history before')).toBeGreaterThanOrEqual(8);
    expect(refusedFor.get('market blocks')).toBeGreaterThanOrEqual(1);
    expect(refusedFor.get('records')).toBeGreaterThanOrEqual(4);
  });

  it('a trailing window live before the cut moves keeps the blocks it reads, wider than retention or not', async () => {
    const engine = await createEngine({ minSamples: 10, retain: '5m' });
    try {
      await engine.ingest({ tokens: generateTokens() });
      await engine.ingest(asInput(blocks.slice(0, 25)));
      const live = { window: '1h', limit: 1 } as const;
      await engine.call('chain::market::twap', live); // now live, sliding with every block
      for (let i = 25; i < blocks.length; i += 25) await engine.ingest(asInput(blocks.slice(i, i + 25)));
      for (const method of ['chain::market::volume', 'chain::market::vwap', 'chain::market::twap']) {
        expect(await engine.call(method, live), method).toEqual(await kept.call(method, live));
      }
    } finally {
      await engine.close();
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
      const old = { window: '1m' as const, limit: 1, at: encodeTimestamp(end - 6n * MINUTE) };
      const held = { window: '1m' as const, limit: 1, at: encodeTimestamp(end - 4n * MINUTE + 1n) };
      await refusal(engine.call('chain::priorityfee::fee', old));
      expect(await engine.call('chain::priorityfee::fee', held)).toEqual(await kept.call('chain::priorityfee::fee', held));
      // the engine itself keeps everything: blocks ingested after the replay prune nothing more
      await engine.ingest(asInput(blocks.slice(split)));
      expect(await engine.call('chain::priorityfee::fee', held)).toEqual(await kept.call('chain::priorityfee::fee', held));
    } finally {
      await engine.close();
    }
  });

  it('a replay without retain keeps 15 minutes of transactions; the engine keeps its own setting (everything) afterwards', async () => {
    const market = { minutes: 31, txPerBlock: 2, seed: 'default-retain' } as const;
    const long = [...generateBlocks(market)];
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-retain-'));
    await writeDump(market, (table) => createTableFileWriter(join(dir, `${table}.parquet`), 'parquet', table));
    const to = long[0]!.block.timestamp + 25n * MINUTE;
    const replayed = long.filter((b) => b.block.timestamp < to);
    const engine = await createEngine({ minSamples: 10 });
    try {
      const report = await engine.replay(dir, { speed: Infinity, to: encodeTimestamp(to) });
      expect(report.blocks).toBe(replayed.length);
      const end = replayed.at(-1)!.block.timestamp;
      // pruned up to (end - 15m) rounded down to the minute: a 1m window 16 minutes back is gone, one 14 minutes back is held
      const fee = (at: bigint) => engine.call('chain::priorityfee::fee', { window: '1m', limit: 1000, at: encodeTimestamp(at) });
      const gone = await refusal(fee(end - 16n * MINUTE));
      expect(gone.data).toEqual({ param: 'at' });
      const held = end - 14n * MINUTE;
      // the windows that ended by the cut went with their transactions
      const cut = cutAfter(end, 15n * MINUTE);
      const expected = (expectedAsOf('chain::priorityfee::fee', held, long) as { window_end: string }[]).filter((w) => nsOf(w.window_end) > cut);
      expect(expected.length).toBeGreaterThan(0);
      expect(asOfFields('chain::priorityfee::fee', (await fee(held)) as Record<string, unknown>[])).toEqual(expected);
      // 6 more minutes: under the replay's 15m they would prune past `held`; the engine's own setting keeps them
      const rest = long.slice(replayed.length);
      expect(rest.length).toBeGreaterThan(0);
      for (let i = 0; i < rest.length; i += 300) await engine.ingest(asInput(rest.slice(i, i + 300)));
      expect(asOfFields('chain::priorityfee::fee', (await fee(held)) as Record<string, unknown>[])).toEqual(expected);
      await refusal(fee(end - 16n * MINUTE)); // what was pruned stays pruned
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
