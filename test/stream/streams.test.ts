/**
 * Streams beyond the consistency law: the stream methods' errors, unsubscribing and closing, the
 * slow-subscriber policy (docs/semantics.md, Streams), a subscription made after data was ingested,
 * the fee window and candle a block closes (checked whole against values computed from the test's
 * rows), and pushes over a raw port (JSON text objects, the subscribe reply first). Waits are on
 * messages and promises, never on a length of time.
 */
import { once } from 'node:events';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_START, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { asTaggedReply } from '../../src/transport/tags.js';
import { connect, createEngine, type Engine, type PushParams } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { WindowFees } from '../../src/schema/records.js';
import { collect as feeCounters, familyStats } from '../helpers/fee-oracle.js';
import { candleRecords, oracleBlocks } from '../market/oracle.js';
import { wireF32, wireTime } from '../oracle/format.js';
import { pointId } from '../oracle/ids.js';
import { tickWhile } from '../helpers/ticks.js';

const MINUTE = 60_000_000_000n;
/** 36 s of market from 40 s past a minute: block ~49 opens a new minute (fee window and 1m candles). */
const market = [...generateBlocks({ minutes: 0.6, txPerBlock: 30, seed: 'stream-policy', start: DEFAULT_START + 40n * 1_000_000_000n })];
const minuteOf = (t: bigint) => t - (t % MINUTE);
/** A method name as a string known only at run time: the typed overloads refuse the wrong calls tested here. */
const runtimeName = (name: string): string => name;
const rows = (part: GeneratedBlock[]) => ({
  blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades),
});
/** Ingests blocks one call each (one push per block and subscription). */
async function ingestEach(engine: Engine, part: GeneratedBlock[]) {
  for (const b of part) await engine.ingest(rows([b]));
}
const subscribe = (id: number, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'chain::subscribe', params: { method, params } });

let engines: Engine[] = [];
let ports: MessagePort[] = [];
async function open(options = {}): Promise<Engine> {
  const engine = await createEngine({ minSamples: 10, ...options });
  engines.push(engine);
  return engine;
}
function channel(engine: Engine) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  engine.serve(port1);
  return { port1, port2 };
}
afterEach(async () => {
  for (const p of ports) p.close();
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
  ports = [];
});

/** Every message a port receives, parsed. */
function collect(port: MessagePort): unknown[] {
  const messages: unknown[] = [];
  port.on('message', (data) => messages.push(typeof data === 'string' ? JSON.parse(data) : data));
  return messages;
}

/**
 * Resolves once `condition()` holds, checked on each message `port` receives (and at once): waits on
 * events, never on a length of time; the generous timeout only turns a hang into a failure.
 */
async function until(port: MessagePort, condition: () => boolean, what: string): Promise<void> {
  if (condition()) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (port.off('message', check), reject(new Error(`timed out waiting for ${what}`))), 30_000);
    function check() {
      // after the other listeners of this message (collect) have run
      queueMicrotask(() => {
        if (!condition()) return;
        clearTimeout(timer);
        port.off('message', check);
        resolve();
      });
    }
    port.on('message', check);
  });
}

/** Counts what the server posts on its side of a channel (replies and pushes), parsed. */
function tapPosts(port: MessagePort): unknown[] {
  const posted: unknown[] = [];
  const post = port.postMessage.bind(port);
  port.postMessage = (message: unknown) => void (posted.push(typeof message === 'string' ? JSON.parse(message) : message), post(message));
  return posted;
}

/** A reply (tagged, as connect() gets them, or a bare array), not a push. */
const isReply = (message: unknown) => Array.isArray(message) || asTaggedReply(message) !== undefined;

/** Resolves once the server has posted `n` replies on `posted`, checked at each turn of the event loop. */
async function repliesPosted(posted: unknown[], n: number): Promise<void> {
  const giveUp = performance.now() + 30_000; // turns a hang into a failure; nothing is asserted on time
  while (posted.filter(isReply).length < n) {
    if (performance.now() > giveUp) throw new Error(`the server posted ${posted.filter(isReply).length} of ${n} replies`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The 1m fee window of `start` over `part` (its blocks up to the push's), as the fee method answers it, from the test's rows. */
function feeWindow(start: bigint, part: readonly GeneratedBlock[]): Record<string, unknown> {
  const c = feeCounters([...part]);
  const fields = new Set<string>(WindowFees.fields.map(([name]) => name));
  // float32 fields as the wire writes them (the fee oracle gives the float32's double)
  const stats = Object.entries(familyStats(c.samples)).filter(([name]) => fields.has(name))
    .map(([name, value]) => [name, value !== null && name.startsWith('position_') ? wireF32(Number(value)) : value]);
  return {
    id: pointId('chain::priorityfee::fee', '1m', start), window_start: wireTime(start), window_end: wireTime(start + MINUTE),
    timestamp: wireTime(part.at(-1)!.block.timestamp), window_duration: 'PT1M',
    tx_count: String(c.txCount), no_priority_tx_count: String(c.noPriority), total_tx_count: String(c.total),
    total_priority_fees: String(c.fees), data_points: String(c.txCount), is_valid: c.txCount >= 10, ...Object.fromEntries(stats),
  };
}

/**
 * The 1m fee push after blocks[k] (docs/semantics.md, Streams): the window holding it as it stands,
 * then, when it is the first block of its minute, the window it closed (whole).
 */
function feePush(blocks: readonly GeneratedBlock[], k: number): Record<string, unknown>[] {
  const time = blocks[k]!.block.timestamp;
  const start = minuteOf(time);
  const current = feeWindow(start, blocks.slice(0, k + 1).filter((b) => b.block.timestamp >= start));
  const previous = blocks[k - 1]?.block.timestamp;
  if (previous === undefined || minuteOf(previous) === start) return [current];
  const closedStart = minuteOf(previous);
  return [current, feeWindow(closedStart, blocks.slice(0, k).filter((b) => b.block.timestamp >= closedStart))];
}

/**
 * The 1m SOL/USDC candle push after blocks[k] (none when it has no such trade): the candle holding
 * it, then, when it is the pair's first block of its minute, the pair's candle before it (whole).
 */
function candlePush(blocks: readonly GeneratedBlock[], k: number): unknown[] {
  const pair = (b: GeneratedBlock) => b.trades.filter((t) => t.base === SOL_MINT && t.quote === USDC_MINT);
  if (pair(blocks[k]!).length === 0) return [];
  const pairBlocks = oracleBlocks(blocks.slice(0, k + 1).flatMap((b) => b.trades)).filter((x) => x.base === SOL_MINT && x.quote === USDC_MINT);
  const candles = candleRecords(pairBlocks, '1m');
  const opened = pairBlocks.length === 1 || minuteOf(pairBlocks.at(-2)!.time) !== minuteOf(pairBlocks.at(-1)!.time);
  return opened && candles.length > 1 ? [candles.at(-1), candles.at(-2)] : [candles.at(-1)];
}

describe('stream methods', () => {
  it('answer errors as data: unknown method, bad params, at, unknown subscription, no connection', async () => {
    const engine = await open();
    const client = connect(channel(engine).port2);
    const error = (p: Promise<unknown>) => p.then(() => undefined, (e) => e.rpc);
    expect(await error(client.subscribe(runtimeName('chain::market::ohlcvv'), { window: '1m' }, () => {}))).toMatchObject({
      code: -32601, data: { method: 'chain::market::ohlcvv', suggestion: 'chain::market::ohlcv' },
    });
    expect(await error(client.subscribe(runtimeName('chain::market::ohlcv'), { window: '7m' }, () => {}))).toMatchObject({ code: -32602, data: { param: 'window' } });
    expect(await error(client.subscribe(runtimeName('chain::market::ohlcv'), {}, () => {}))).toMatchObject({ code: -32602, data: { param: 'window' } });
    expect(await error(client.subscribe('chain::market::trades', { at: 1767225600 }, () => {}))).toMatchObject({ code: -32602, data: { param: 'at' } });
    const [extra] = await client.request({ jsonrpc: '2.0', id: 1, method: 'chain::subscribe', params: { method: 'chain::market::trades', extra: 1 } });
    expect(extra).toMatchObject({ error: { code: -32602, data: { param: 'extra' } } });
    expect(await error(client.call(runtimeName('chain::unsubscribe'), { subscription: 99 }))).toMatchObject({ code: -32004, data: { subscription: 99 } });
    expect(await error(client.call(runtimeName('chain::unsubscribe'), { subscription: 'x' }))).toMatchObject({ code: -32602, data: { param: 'subscription' } });
    // engine.request cannot push: it says where streams are
    const [local] = await engine.request({ jsonrpc: '2.0', id: 2, method: 'chain::subscribe', params: { method: 'chain::market::trades' } });
    expect(local).toMatchObject({ id: 2, error: { code: -32601 } });
    expect((local as { error: { message: string } }).error.message).toMatch(/engine\.subscribe\(\)/);
    await expect(engine.subscribe(runtimeName('chain::market::vwap'), { window: '2m' }, () => {})).rejects.toMatchObject({ code: -32602 });
    client.close();
  });

  it('over a raw port: the reply carries the id before any push, pushes are JSON text objects', async () => {
    const engine = await open();
    const { port2 } = channel(engine);
    const messages = collect(port2);
    port2.postMessage(subscribe(7, 'chain::priorityfee::block'));
    await until(port2, () => messages.length === 1, 'the subscribe reply');
    await ingestEach(engine, market.slice(0, 3));
    await until(port2, () => messages.length >= 4, 'three pushes');
    expect(messages).toHaveLength(4);
    expect(messages[0]).toEqual([{ jsonrpc: '2.0', id: 7, result: expect.any(Number) }]);
    const id = (messages[0] as { result: number }[])[0]!.result;
    expect(messages.slice(1)).toHaveLength(3);
    for (const [i, push] of messages.slice(1).entries()) {
      expect(push).toMatchObject({
        jsonrpc: '2.0', method: 'chain::subscription',
        params: { subscription: id, block: { slot: String(market[i]!.block.slot), timestamp: encodeTimestamp(market[i]!.block.timestamp) } },
      });
      expect((push as { params: PushParams }).params.result).toEqual(
        await engine.call('chain::priorityfee::block', { at: encodeTimestamp(market[i]!.block.timestamp + 1n) }),
      );
    }
  });

  it('unsubscribe ends pushes; so do client.close() and closing the port', async () => {
    const engine = await open();
    const { port1, port2 } = channel(engine);
    // what the server posts on port1
    const posted = tapPosts(port1);
    const client = connect(port2);
    const got: PushParams[] = [];
    const first = await client.subscribe('chain::market::trades', {}, (p) => void got.push(p));
    const second = await client.subscribe('chain::priorityfee::block', {}, (p) => void got.push(p));
    await ingestEach(engine, market.slice(0, 2));
    await client.call('chain::market::token', {});
    expect(got.filter((p) => p.subscription === first.id).length).toBe(2);
    await first.unsubscribe();
    await expect(first.unsubscribe()).rejects.toMatchObject({ code: -32004 });
    await ingestEach(engine, market.slice(2, 4));
    await client.call('chain::market::token', {});
    expect(got.filter((p) => p.subscription === first.id).length).toBe(2);
    expect(got.length).toBe(6);

    // client.close() unsubscribes first: the server answers the notifications ([]) and pushes no more
    // a second client on its own port: what its server posts is its replies only
    const { port1: otherServer, port2: otherPort } = channel(engine);
    const otherPosted = tapPosts(otherServer);
    const other = connect(otherPort);
    await other.subscribe('chain::market::trades', {}, () => {});
    other.close();
    await repliesPosted(otherPosted, 2); // the subscribe reply, then [] for the unsubscribe notification
    const mark = posted.length;
    await ingestEach(engine, market.slice(4, 5));
    expect(otherPosted).toHaveLength(2);
    expect(posted.slice(mark).filter((m) => !isReply(m))).toMatchObject([{ params: { subscription: second.id } }]); // the one subscription left

    const closed = once(port1, 'close'); // after the server's own close listener
    port2.close(); // Node reports the close on port1: the server ends the port's subscriptions
    await closed;
    const end = posted.length;
    await ingestEach(engine, market.slice(5, 7));
    expect(posted.slice(end).filter((m) => !isReply(m))).toEqual([]);
  });

  it('a subscription made after data was ingested pushes from then on, top_txs and fee included', async () => {
    const engine = await open();
    await ingestEach(engine, market.slice(0, 40));
    const got = new Map<string, PushParams[]>();
    for (const [method, params] of [['chain::priorityfee::top_txs', { window: '5m' }], ['chain::priorityfee::fee', { window: '1m' }]] as const) {
      await engine.subscribe(method, params, (p) => void got.set(method, [...(got.get(method) ?? []), p]));
    }
    const rest = market.slice(40, 70);
    await engine.ingest(rows(rest.slice(0, 12))); // several blocks in one commit: still one push per block
    await ingestEach(engine, rest.slice(12));
    for (const [method, pushes] of got) {
      expect(pushes.map((p) => p.block!.slot), method).toEqual(rest.map((b) => String(b.block.slot)));
      for (const [i, push] of pushes.entries()) {
        if (method.endsWith('top_txs')) {
          const at = encodeTimestamp(rest[i]!.block.timestamp + 1n);
          expect(push.result, method).toEqual(await engine.call(method, { window: '5m', limit: 1000, at }));
        } else expect(push.result, `${method} after slot ${push.block!.slot}`).toEqual(feePush(market, 40 + i));
      }
    }
    // the closing block is one of the twelve committed together: its push has both windows
    expect(got.get('chain::priorityfee::fee')!.filter((p) => p.result!.length === 2)).toHaveLength(1);
  });

  it('a chunk\'s pushes go out in slices; a subscription made meanwhile gets none of them: its first answer holds the chunk', async () => {
    const engine = await open();
    const blocks = [...generateBlocks({ minutes: 1, txPerBlock: 60, seed: 'stream-slices' })];
    const first: string[] = [];
    const later: string[] = [];
    let subscribing: Promise<unknown> | undefined;
    let ticks = 0; // turns of the event loop after the first push
    const ticking = tickWhile(() => void (first.length > 0 && ticks++));
    await engine.subscribe('chain::market::trades', {}, (p) => {
      first.push(p.block!.slot);
      subscribing ??= engine.subscribe('chain::market::trades', {}, (q) => void later.push(q.block!.slot));
    });
    await engine.ingest(rows(blocks.slice(0, -1))); // one commit of 149 blocks
    const ticksDuring = ticks;
    ticking.stop();
    await subscribing;
    await engine.ingest(rows(blocks.slice(-1)));
    const slotsWithTrades = (part: GeneratedBlock[]) => part.filter((b) => b.trades.length > 0).map((b) => String(b.block.slot));
    expect(first).toEqual(slotsWithTrades(blocks));
    expect(later).toEqual(slotsWithTrades(blocks.slice(-1)));
    expect(later).toHaveLength(1);
    expect(ticksDuring).toBeGreaterThan(0);
  });

  it('a block that opens a new minute pushes the fee window and the candle it closed, whole', async () => {
    const engine = await open();
    await engine.ingest({ tokens: generateTokens() });
    const fees: PushParams[] = [];
    const candles: PushParams[] = [];
    await engine.subscribe('chain::priorityfee::fee', { window: '1m' }, (p) => void fees.push(p));
    await engine.subscribe('chain::market::ohlcv', { window: '1m', base: SOL_MINT, quote: USDC_MINT }, (p) => void candles.push(p));
    for (let i = 0; i < market.length; i += 10) await engine.ingest(rows(market.slice(i, i + 10)));

    expect(fees.map((p) => p.block!.slot)).toEqual(market.map((b) => String(b.block.slot)));
    fees.forEach((push, k) => expect(push.result, `fee after slot ${push.block!.slot}`).toEqual(feePush(market, k)));
    const closing = market.findIndex((b, k) => k > 0 && minuteOf(b.block.timestamp) !== minuteOf(market[k - 1]!.block.timestamp));
    expect(closing).toBeGreaterThan(0);
    expect(fees[closing]!.result!.map((r) => r.window_start)).toEqual([
      encodeTimestamp(minuteOf(market[closing]!.block.timestamp)), encodeTimestamp(minuteOf(market[closing - 1]!.block.timestamp)),
    ]);

    const traded = market.flatMap((_, k) => (candlePush(market, k).length > 0 ? [k] : []));
    expect(candles.map((p) => p.block!.slot)).toEqual(traded.map((k) => String(market[k]!.block.slot)));
    candles.forEach((push, i) => expect(push.result, `candle after slot ${push.block!.slot}`).toEqual(candlePush(market, traded[i]!)));
    expect(candles.filter((p) => p.result!.length === 2), 'a push with the candle a block closed').toHaveLength(1);
  });

  it('tokens are pushed when they are ingested, without a block', async () => {
    const engine = await open();
    const got: PushParams[] = [];
    await engine.subscribe('chain::market::token', { mint: generateTokens()[1]!.mint }, (p) => void got.push(p));
    await engine.ingest({ tokens: generateTokens() });
    expect(got).toEqual([{ subscription: expect.any(Number), result: await engine.call('chain::market::token', { mint: generateTokens()[1]!.mint }) }]);
  });
});

describe('slow subscribers (bounded queue, then the subscription ends with -32005)', () => {
  const LIMIT = 20;

  it('a port that never reads gets LIMIT pushes, then the error, then nothing; ingestion goes on', async () => {
    const engine = await open({ streams: { maxPendingPushes: LIMIT } });
    const { port1, port2 } = channel(engine);
    const posted = tapPosts(port1);
    port2.postMessage(subscribe(1, 'chain::priorityfee::block'));
    port2.postMessage(subscribe(2, 'chain::market::ingestion'));
    await repliesPosted(posted, 2); // subscribed (the port itself reads nothing yet)
    await ingestEach(engine, market.slice(0, 60)); // ingestion goes on: it never waits for the reader
    // now read what was queued: everything the server posted
    const messages = collect(port2);
    await until(port2, () => messages.length === posted.length, 'the queued messages');
    const replies = messages.filter(Array.isArray);
    expect(replies).toHaveLength(2);
    const pushes = messages.filter((m) => !isReply(m)) as { params: PushParams }[];
    for (const id of [1, 2]) {
      const subscription = (replies[id - 1] as { result: number }[])[0]!.result;
      const mine = pushes.filter((p) => p.params.subscription === subscription);
      expect(mine).toHaveLength(LIMIT + 1);
      expect(mine.slice(0, LIMIT).every((p) => p.params.result !== undefined)).toBe(true);
      expect(mine[LIMIT]!.params).toEqual({
        subscription,
        error: { code: -32005, message: expect.stringMatching(/fell 20 pushes behind/), data: expect.objectContaining({ reason: 'slow subscriber', pending: LIMIT }) },
      });
    }
    // the data was not lost: a query has it all
    expect(await engine.call('chain::priorityfee::block', { limit: 100 })).toHaveLength(60);
  });

  it('the byte bound too', async () => {
    const engine = await open({ streams: { maxPendingBytes: 20_000 } });
    const { port1, port2 } = channel(engine);
    const posted = tapPosts(port1);
    port2.postMessage(subscribe(1, 'chain::priorityfee::top_txs', { window: '5m' }));
    await repliesPosted(posted, 1);
    await ingestEach(engine, market.slice(0, 10));
    const messages = collect(port2);
    await until(port2, () => messages.length === posted.length, 'the queued messages');
    const pushes = messages.filter((m) => !isReply(m)) as { params: PushParams }[];
    const last = pushes.at(-1)!.params;
    expect(last.error).toMatchObject({ code: -32005, data: { reason: 'slow subscriber' } });
    expect((last.error!.data as { pendingBytes: number }).pendingBytes).toBeGreaterThanOrEqual(20_000);
    expect(pushes.length).toBeLessThan(10);
  });

  it('a client that reads keeps its subscription: it acknowledges as it goes', async () => {
    const engine = await open({ streams: { maxPendingPushes: LIMIT } });
    const client = connect(channel(engine).port2, { ackEvery: 5 });
    const got: PushParams[] = [];
    await client.subscribe('chain::priorityfee::block', {}, (p) => void got.push(p));
    for (const b of market.slice(0, 60)) {
      await engine.ingest(rows([b]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await client.call('chain::market::token', {});
    expect(got).toHaveLength(60);
    expect(got.every((p) => p.error === undefined)).toBe(true);
    client.close();
  });

  it('a local callback whose promises never settle is ended the same way; one that throws is ended with -32603', async () => {
    const engine = await open({ streams: { maxPendingPushes: LIMIT } });
    const stuck: PushParams[] = [];
    await engine.subscribe('chain::priorityfee::block', {}, (p) => {
      stuck.push(p);
      return new Promise(() => {});
    });
    const thrown: PushParams[] = [];
    await engine.subscribe('chain::market::ingestion', {}, (p) => {
      thrown.push(p);
      if (!p.error) throw new Error('strategy bug');
    });
    await ingestEach(engine, market.slice(0, 30));
    expect(stuck).toHaveLength(LIMIT + 1);
    expect(stuck[LIMIT]!.error).toMatchObject({ code: -32005 });
    expect(thrown).toHaveLength(2);
    expect(thrown[1]!.error).toMatchObject({ code: -32603, data: { reason: 'strategy bug' } });
  });
});

describe('chain::replay (the engine worker owner only)', () => {
  it('validates its params on the worker port, and does not exist on a served port', async () => {
    const { TRANSPORTS } = await import('../helpers/transports.js');
    const worker = await TRANSPORTS['worker port']!();
    try {
      const error = (p: Promise<unknown>) => p.then(() => undefined, (e) => e.rpc);
      expect(await error(worker.call('chain::replay', { data: 5 }))).toMatchObject({ code: -32602, data: { param: 'data' } });
      expect(await error(worker.call('chain::replay', { data: '/nowhere', speed: 0 }))).toMatchObject({ code: -32602, data: { param: 'speed' } });
      expect(await error(worker.call('chain::replay', { data: '/nowhere', from: 'yesterday' }))).toMatchObject({ code: -32602, data: { param: 'from' } });
      expect(await error(worker.call('chain::replay', { data: '/nowhere', pace: 1 }))).toMatchObject({ code: -32602, data: { param: 'pace' } });
      expect(await error(worker.call('chain::replay', { data: '/nowhere', retain: '1m' }))).toMatchObject({ code: -32602, data: { param: 'retain' } });
    } finally {
      await worker.close();
    }
    const engine = await open();
    const client = connect(channel(engine).port2);
    await expect(client.call(runtimeName('chain::replay'), { data: '/etc' })).rejects.toMatchObject({ code: -32601 });
    client.close();
  });
});
