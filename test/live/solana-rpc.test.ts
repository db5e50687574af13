/**
 * The live Solana JSON-RPC source against a loopback JSON-RPC server serving real mainnet blocks
 * (test/helpers/solana-rpc-server.ts; the blocks: test/fixtures/real/PROVENANCE.md), into a real
 * engine. What the follower committed is checked against engine.load of the same fixture files, an
 * independent path; what it asked for, against the server's record of requests.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.node.js';
import { followSolanaRpc, type FollowEvent, type Follower, type FollowOptions } from '../../src/live/solana-rpc.js';
import { chain, fixtureFile, SolanaRpcServer, type ChainBlock } from '../helpers/solana-rpc-server.js';

const FIRST = 400_000_000n;
/** Short waits: every test runs in a few seconds. */
const FAST = { pollMs: 10, retry: { attempts: 6, baseMs: 5, maxMs: 50 } } satisfies Partial<FollowOptions>;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

async function engine(): Promise<Engine> {
  const created = await createEngine();
  cleanups.push(() => created.close());
  return created;
}

async function server(blocks: readonly ChainBlock[], tip?: bigint): Promise<SolanaRpcServer> {
  const started = await SolanaRpcServer.start(blocks, tip);
  cleanups.push(() => started.close());
  return started;
}

/** A follower whose events are collected; stopped after the test if it is still running. */
function follow(target: Pick<Engine, 'ingest'>, rpc: SolanaRpcServer, options: Partial<FollowOptions> = {}) {
  const events: FollowEvent[] = [];
  const follower: Follower = followSolanaRpc(target, {
    url: rpc.url, ...FAST, ...options,
    onEvent: (event) => (events.push(event), options.onEvent?.(event)),
  });
  cleanups.push(() => follower.stop());
  const slots = (type: FollowEvent['type']) => events.filter((e) => e.type === type).map((e) => (e as { slot: string }).slot);
  return { follower, events, slots };
}

/** Resolves once `condition` holds (checked every few ms); fails after `ms`. */
async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const strings = (slots: readonly bigint[]) => slots.map(String);

/** The answers of the blocks' own data (by slot), compared between the follower's engine and the loaded one. */
async function blockAnswers(target: Engine) {
  return {
    blockFees: await target.call('chain::priorityfee::block', { limit: 1000 }),
    trades: await target.call('chain::market::trades', { limit: 1000 }),
    marketBlocks: await target.call('chain::market::block', { limit: 1000 }),
  };
}

/** Those and the tokens (mint metadata, not slot data). */
async function answers(target: Engine) {
  return { ...(await blockAnswers(target)), tokens: await target.call('chain::market::token', {}) };
}

/** An engine loaded with the fixture files of `blocks`, each named by its chain slot. */
async function loaded(blocks: readonly ChainBlock[]): Promise<Engine> {
  const target = await engine();
  const report = await target.load(blocks.map((b) => ({ name: `block-${b.slot}.base64.json`, bytes: readFileSync(fixtureFile(b.fixture, 'base64')) })));
  expect(report.blocks).toBe(blocks.length);
  return target;
}

describe('followSolanaRpc', () => {
  it.each(['base64', 'json'] as const)('ingests every block in slot order, as engine.load of the same files answers (%s encoding)', async (encoding) => {
    const blocks = chain('B.BB.B..B', FIRST);
    const rpc = await server(blocks);
    const live = await engine();
    const { follower, events, slots } = follow(live, rpc, { startSlot: FIRST, encoding });
    await until(() => follower.status().committed === blocks.length);
    const report = await follower.stop();

    expect(slots('committed')).toEqual(strings(blocks.map((b) => b.slot)));
    expect(slots('skipped')).toEqual(strings([FIRST + 1n, FIRST + 4n, FIRST + 6n, FIRST + 7n]));
    expect(events.filter((e) => e.type === 'rejected' || e.type === 'retry' || e.type === 'error')).toEqual([]);
    expect(report).toMatchObject({ committed: 5, skipped: 4, rejected: 0, retries: 0, newestCommittedSlot: String(FIRST + 8n) });
    expect(report.rows.read).toBe(report.rows.ingested + report.rows.rejected);
    // each block asked for once, in the encoding and commitment given, and never a slot getBlocks left out
    expect(strings(rpc.blockRequests())).toEqual(strings(blocks.map((b) => b.slot)));
    for (const request of rpc.calls('getBlock')) {
      expect(request.params[1]).toEqual({ encoding, maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false, commitment: 'confirmed' });
    }
    expect(rpc.calls('getSlot')[0]!.params).toEqual([{ commitment: 'confirmed' }]);

    const expected = await answers(await loaded(blocks));
    expect(expected.blockFees).toHaveLength(5);
    expect(expected.trades.length).toBeGreaterThan(0);
    expect(await answers(live)).toEqual(expected);
  });

  it('counts skipped slots without error, also those getBlock has no block for, and a later block still arrives', async () => {
    const rpc = await server(chain('B....B......B', FIRST), FIRST + 9n);
    // listed by getBlocks, then: skipped after a ledger jump, missing in long-term storage, a null result
    rpc.listedWithoutBlock.set(FIRST + 1n, { code: -32007, message: `Slot ${FIRST + 1n} was skipped, or missing due to ledger jump to recent snapshot` });
    rpc.listedWithoutBlock.set(FIRST + 2n, { code: -32009, message: `Slot ${FIRST + 2n} was skipped, or missing in long-term storage` });
    rpc.listedWithoutBlock.set(FIRST + 3n, null);
    const live = await engine();
    const { follower, events, slots } = follow(live, rpc, { startSlot: FIRST });
    await until(() => follower.status().committed === 2);
    expect(slots('committed')).toEqual(strings([FIRST, FIRST + 5n]));
    expect(slots('skipped')).toEqual(strings([FIRST + 1n, FIRST + 2n, FIRST + 3n, FIRST + 4n]));
    expect(strings(rpc.blockRequests())).toEqual(strings([FIRST, FIRST + 1n, FIRST + 2n, FIRST + 3n, FIRST + 5n]));

    // slots after the newest block count as skipped only once a later block exists; then one comes
    await until(() => events.some((e) => e.type === 'caughtUp'));
    expect(follower.status()).toMatchObject({ skipped: 4, tipSlot: String(FIRST + 9n), behind: 4 });
    // while the tip stays, the follower only polls getSlot, and says it caught up once
    const polls = rpc.calls('getSlot').length;
    const listings = rpc.calls('getBlocks').length;
    await until(() => rpc.calls('getSlot').length >= polls + 5);
    expect(rpc.calls('getBlocks')).toHaveLength(listings);
    expect(events.filter((e) => e.type === 'caughtUp')).toHaveLength(1);
    rpc.tip = FIRST + 12n;
    await until(() => follower.status().committed === 3);
    expect(slots('committed')).toEqual(strings([FIRST, FIRST + 5n, FIRST + 12n]));
    expect(slots('skipped')).toEqual(strings([1n, 2n, 3n, 4n, 6n, 7n, 8n, 9n, 10n, 11n].map((k) => FIRST + k)));
    expect(events.filter((e) => e.type === 'rejected' || e.type === 'error')).toEqual([]);
  });

  it('retries 429 (after Retry-After), 5xx, timeouts and not-yet errors, losing and repeating no block', async () => {
    const blocks = chain('BB.BBB', FIRST);
    const rpc = await server(blocks);
    rpc.fail({ method: 'getSlot', times: 1, status: 429, retryAfter: '1' });
    rpc.fail({ method: 'getBlocks', times: 2, status: 500 });
    rpc.fail({ method: 'getBlock', times: 1, status: 503 });
    rpc.fail({ method: 'getBlock', times: 1, delayMs: 2_500 }); // past requestTimeoutMs
    rpc.fail({ method: 'getBlock', times: 1, rpcError: { code: -32004, message: 'Block not available for slot' } });
    rpc.fail({ method: 'getBlock', times: 1, rpcError: { code: -32014, message: 'Block status not yet available' } });
    rpc.delays.getBlock = 20;
    const live = await engine();
    const { follower, events, slots } = follow(live, rpc, { startSlot: FIRST, requestTimeoutMs: 1_500 });
    await until(() => follower.status().committed === blocks.length);
    await follower.stop();

    expect(slots('committed')).toEqual(strings(blocks.map((b) => b.slot)));
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => e.method).sort()).toEqual(['getBlock', 'getBlock', 'getBlock', 'getBlock', 'getBlocks', 'getBlocks', 'getSlot']);
    expect(follower.status().retries).toBe(7);
    expect(retries.map((e) => e.reason)).toEqual(expect.arrayContaining([
      'HTTP 429 Too Many Requests', 'HTTP 500 Internal Server Error', 'HTTP 503 Service Unavailable', 'no answer within 1500 ms',
      'JSON-RPC error -32004: Block not available for slot', 'JSON-RPC error -32014: Block status not yet available',
    ]));

    // the server saw every retry: the 429 answered, then getSlot again no sooner than Retry-After said
    const [limited, retried] = rpc.calls('getSlot');
    expect(limited!.status).toBe(429);
    expect(retries.find((e) => e.method === 'getSlot')!.delayMs).toBeGreaterThanOrEqual(1_000);
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(990);
    expect(rpc.calls('getBlocks').map((r) => r.status)).toEqual([500, 500, 200]);
    const blockRequests = rpc.blockRequests();
    expect(blockRequests).toHaveLength(blocks.length + 4);
    expect(strings([...new Set(blockRequests)].sort())).toEqual(strings(blocks.map((b) => b.slot)));
    expect(await answers(live)).toEqual(await answers(await loaded(blocks)));
  });

  it('rejects with an Error naming the URL and the method once the retries of a call are spent', async () => {
    const rpc = await server(chain('BB', FIRST));
    rpc.fail({ method: 'getSlot', times: 100, status: 500 });
    const { follower, events } = follow(await engine(), rpc, { retry: { attempts: 3, baseMs: 1, maxMs: 2 } });
    const expected = new RegExp(`^getSlot at ${rpc.url.replace(/\./g, '\\.')}: gave up after 3 attempts; the last failed with HTTP 500`);
    await expect(follower.done).rejects.toThrow(expected);
    await expect(follower.stop()).rejects.toThrow(expected);
    expect(events.map((e) => e.type)).toEqual(['retry', 'retry', 'error']);
    expect(follower.status().state).toBe('stopped');
    expect(rpc.calls('getSlot')).toHaveLength(3);

    // a block that exists is never dropped: getBlock failing for good is fatal too, and nothing after it is ingested
    const rpc2 = await server(chain('BB', FIRST));
    rpc2.fail({ method: 'getBlock', times: 100, status: 502 });
    const { follower: second } = follow(await engine(), rpc2, { startSlot: FIRST, retry: { attempts: 2, baseMs: 1, maxMs: 2 } });
    await expect(second.done).rejects.toThrow(/^getBlock at http:\/\/127\.0\.0\.1:\d+\/: gave up after 2 attempts; the last failed with HTTP 502/);
    expect(second.status()).toMatchObject({ committed: 0, skipped: 0 });

    // nothing listening: network errors are retried, then fatal
    const closed = await server(chain('B', FIRST));
    await closed.close();
    const { follower: third, events: thirdEvents } = follow(await engine(), closed, { retry: { attempts: 2, baseMs: 1, maxMs: 2 } });
    await expect(third.done).rejects.toThrow(/^getSlot at http:\/\/127\.0\.0\.1:\d+\/: gave up after 2 attempts; the last failed with network error: .*ECONNREFUSED/);
    expect(thirdEvents[0]).toMatchObject({ type: 'retry', method: 'getSlot', attempt: 1, reason: expect.stringMatching(/^network error/) });
  });

  it('reports the blocks the engine already has as rejected (engine.ingest refuses them) and goes on', async () => {
    const blocks = chain('BBBB', FIRST);
    const rpc = await server(blocks);
    const live = await loaded(blocks.slice(1, 2)); // a dump holding the block at FIRST + 1
    const { follower, events, slots } = follow(live, rpc, { startSlot: FIRST });
    await until(() => follower.status().committed === 2);
    await follower.stop();
    expect(events.filter((e) => e.type === 'rejected')).toEqual([0n, 1n].map((k) => ({
      type: 'rejected', slot: String(FIRST + k), reason: `slot ${FIRST + k} is not newer than the newest ingested slot ${FIRST + 1n}: blocks are ingested in slot order, once`,
    })));
    expect(slots('committed')).toEqual(strings([FIRST + 2n, FIRST + 3n]));
    // by slot only: engine.ingest keeps a refused block's token rows (mint metadata has no slot)
    expect(await blockAnswers(live)).toEqual(await blockAnswers(await loaded(blocks.slice(1))));
  });

  it('reports a malformed block as rejected and ingests the blocks after it', async () => {
    const blocks = chain('BBBBB', FIRST);
    const rpc = await server(blocks);
    rpc.malformed.set(FIRST + 1n, 'transactions-not-array');
    rpc.malformed.set(FIRST + 3n, 'truncated');
    const live = await engine();
    const { follower, events, slots } = follow(live, rpc, { startSlot: FIRST });
    await until(() => follower.status().committed + follower.status().rejected === blocks.length);
    await follower.stop();

    expect(slots('committed')).toEqual(strings([FIRST, FIRST + 2n, FIRST + 4n]));
    const rejected = events.filter((e) => e.type === 'rejected');
    expect(rejected).toEqual([
      { type: 'rejected', slot: String(FIRST + 1n), reason: expect.stringMatching(/^block\.transactions: .*transaction list, got number 7/) },
      { type: 'rejected', slot: String(FIRST + 3n), reason: expect.stringMatching(/^invalid JSON: .*\(the text looks truncated\)$/) },
    ]);
    expect(follower.status()).toMatchObject({ committed: 3, rejected: 2, skipped: 0, state: 'stopped' });
    expect(strings(rpc.blockRequests())).toEqual(strings(blocks.map((b) => b.slot))); // a malformed block is not asked for again
    expect(await answers(live)).toEqual(await answers(await loaded(blocks.filter((_, i) => i % 2 === 0))));
  });

  it('resumes from the cursor file at the slot after the newest committed one, ingesting nothing twice', async () => {
    const blocks = chain('BB.B.BB', FIRST);
    const rpc = await server(blocks);
    const cursorFile = join(mkdtempSync(join(tmpdir(), 'chainlens-live-')), 'state', 'cursor.json');
    const first = await engine();
    let stopping: Promise<unknown> | undefined;
    const run1 = follow(first, rpc, {
      startSlot: FIRST, cursorFile,
      onEvent: (e) => void (e.type === 'committed' && e.slot === String(FIRST + 1n) && (stopping = run1.follower.stop())),
    });
    await until(() => stopping !== undefined);
    const report1 = await stopping;
    expect(report1).toMatchObject({ committed: 2, newestCommittedSlot: String(FIRST + 1n) });
    expect(JSON.parse(readFileSync(cursorFile, 'utf8'))).toEqual({ slot: String(FIRST + 1n) });

    const resumedAt = rpc.requests.length;
    const second = await engine();
    // startSlot is ignored when the cursor file says where to go on
    const run2 = follow(second, rpc, { startSlot: FIRST, cursorFile });
    expect(run2.follower.status().state).toBe('starting');
    await until(() => run2.follower.status().committed === 3);
    await run2.follower.stop();

    const getBlocks = rpc.requests.slice(resumedAt).find((r) => r.method === 'getBlocks')!;
    expect(getBlocks.params[0]).toBe(Number(FIRST + 2n));
    expect(strings(rpc.blockRequests(resumedAt))).toEqual(strings(blocks.slice(2).map((b) => b.slot)));
    expect([...run1.slots('committed'), ...run2.slots('committed')]).toEqual(strings(blocks.map((b) => b.slot)));
    expect(run2.follower.status().newestCommittedSlot).toBe(String(FIRST + 6n));
    expect(JSON.parse(readFileSync(cursorFile, 'utf8'))).toEqual({ slot: String(FIRST + 6n) });
    expect(await answers(first)).toEqual(await answers(await loaded(blocks.slice(0, 2))));
    expect(await answers(second)).toEqual(await answers(await loaded(blocks.slice(2))));
  });

  it('backfills the gap when the tip jumps ahead, in getBlocks ranges while far behind (catching-up)', async () => {
    const blocks = chain('B.BB..BB', FIRST);
    const rpc = await server(blocks, FIRST);
    const live = await engine();
    const states = new Set<string>();
    const run = follow(live, rpc, {
      startSlot: FIRST, maxBlocksPerRequest: 2,
      onEvent: () => states.add(run.follower.status().state),
    });
    await until(() => run.events.some((e) => e.type === 'caughtUp'));
    expect(run.slots('committed')).toEqual([String(FIRST)]);

    rpc.tip = FIRST + 7n;
    await until(() => run.follower.status().committed === blocks.length);
    await until(() => run.events.filter((e) => e.type === 'caughtUp').length === 2);
    await run.follower.stop();
    expect(run.slots('committed')).toEqual(strings(blocks.map((b) => b.slot)));
    expect(run.slots('skipped')).toEqual(strings([FIRST + 1n, FIRST + 4n, FIRST + 5n]));
    expect(states).toContain('catching-up');
    const ranges = rpc.calls('getBlocks').map((r) => [r.params[0], r.params[1]]);
    expect(ranges).toEqual(expect.arrayContaining([[Number(FIRST + 1n), Number(FIRST + 2n)], [Number(FIRST + 3n), Number(FIRST + 4n)]]));
    expect(ranges.every(([start, end]) => (end as number) - (start as number) < 2)).toBe(true);
    expect(await answers(live)).toEqual(await answers(await loaded(blocks)));
  });

  it('follows a tip that advances over time, each new block once, from the tip at start by default', async () => {
    const blocks = chain('BB.BBB', FIRST);
    const rpc = await server(blocks, FIRST + 1n);
    const live = await engine();
    const run = follow(live, rpc);
    await until(() => run.follower.status().committed === 1);
    rpc.advanceTip(30, FIRST + 5n);
    await until(() => run.follower.status().committed === 4);
    await run.follower.stop();
    expect(run.slots('committed')).toEqual(strings(blocks.slice(1).map((b) => b.slot)));
    expect(strings(rpc.blockRequests())).toEqual(strings(blocks.slice(1).map((b) => b.slot)));
    expect(rpc.requests.some((r) => r.rpcError !== undefined)).toBe(false);
    expect(run.follower.status()).toMatchObject({ tipSlot: String(FIRST + 5n), behind: 0, newestCommittedSlot: String(FIRST + 5n) });
  });

  it('stops during a slow getBlock without ingesting anything and leaves nothing running', async () => {
    const blocks = chain('BB', FIRST);
    const rpc = await server(blocks);
    // the answer and the request's own timeout both come after the test's: only a stop that cancels the request lets the test end
    rpc.delays.getBlock = 600_000;
    const live = await engine();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const run = follow(live, rpc, { startSlot: FIRST, requestTimeoutMs: 600_000 });
    await until(() => rpc.calls('getBlock').length > 0);
    const report = await run.follower.stop();
    expect(report).toMatchObject({ committed: 0, rows: { read: 0, ingested: 0, rejected: 0 } });
    expect(run.follower.status().state).toBe('stopped');
    expect(await live.call('chain::priorityfee::block', { limit: 1000 })).toEqual([]);
    await rpc.close();
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('a stop during an ingest waits for that block to commit, and goes no further', async () => {
    const blocks = chain('BBB', FIRST);
    const rpc = await server(blocks);
    const live = await engine();
    const cursorFile = join(mkdtempSync(join(tmpdir(), 'chainlens-live-')), 'cursor.json');
    let stopping: Promise<unknown> | undefined;
    const target = {
      ingest: (rows: Parameters<Engine['ingest']>[0]) => {
        const committing = live.ingest(rows);
        stopping ??= run.follower.stop(); // the first block is being ingested
        return committing;
      },
    };
    const run = follow(target, rpc, { startSlot: FIRST, cursorFile });
    await until(() => stopping !== undefined);
    expect(await stopping).toMatchObject({ committed: 1, newestCommittedSlot: String(FIRST) });
    expect(run.slots('committed')).toEqual([String(FIRST)]);
    expect(JSON.parse(readFileSync(cursorFile, 'utf8'))).toEqual({ slot: String(FIRST) });
    expect(await live.call('chain::priorityfee::block', { limit: 1000 })).toHaveLength(1);
  });

  it('refuses bad options at once', () => {
    const target = { ingest: async () => { throw new Error('never called'); } };
    expect(() => followSolanaRpc(target, { url: 'ws://127.0.0.1:1/' })).toThrow(/http: or https:/);
    expect(() => followSolanaRpc(target, { url: 'not a url' })).toThrow(TypeError);
    expect(() => followSolanaRpc(target, { url: 'http://127.0.0.1:1/', maxBlocksPerRequest: 500_001 })).toThrow(RangeError);
    expect(() => followSolanaRpc(target, { url: 'http://127.0.0.1:1/', retry: { attempts: 0 } })).toThrow(RangeError);
  });
});
