/**
 * Streams beyond the consistency law: the stream methods' errors, unsubscribing and closing, the
 * slow-subscriber policy (docs/semantics.md, Streams), a subscription made after data was ingested,
 * and pushes over a raw port (JSON text objects, the subscribe reply first).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { connect, createEngine, type Engine, type PushParams } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';

const market = [...generateBlocks({ minutes: 0.6, txPerBlock: 30, seed: 'stream-policy' })];
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
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('stream methods', () => {
  it('answer errors as data: unknown method, bad params, at, unknown subscription, no connection', async () => {
    const engine = await open();
    const client = connect(channel(engine).port2);
    const error = (p: Promise<unknown>) => p.then(() => undefined, (e) => e.rpc);
    expect(await error(client.subscribe('chain::market::ohlcvv', { window: '1m' }, () => {}))).toMatchObject({
      code: -32601, data: { method: 'chain::market::ohlcvv', suggestion: 'chain::market::ohlcv' },
    });
    expect(await error(client.subscribe('chain::market::ohlcv', { window: '7m' }, () => {}))).toMatchObject({ code: -32602, data: { param: 'window' } });
    expect(await error(client.subscribe('chain::market::ohlcv', {}, () => {}))).toMatchObject({ code: -32602, data: { param: 'window' } });
    expect(await error(client.subscribe('chain::market::trades', { at: 1767225600 }, () => {}))).toMatchObject({ code: -32602, data: { param: 'at' } });
    const [extra] = await client.request({ jsonrpc: '2.0', id: 1, method: 'chain::subscribe', params: { method: 'chain::market::trades', extra: 1 } });
    expect(extra).toMatchObject({ error: { code: -32602, data: { param: 'extra' } } });
    expect(await error(client.call('chain::unsubscribe', { subscription: 99 }))).toMatchObject({ code: -32004, data: { subscription: 99 } });
    expect(await error(client.call('chain::unsubscribe', { subscription: 'x' }))).toMatchObject({ code: -32602, data: { param: 'subscription' } });
    // engine.request cannot push: it says where streams are
    const [local] = await engine.request({ jsonrpc: '2.0', id: 2, method: 'chain::subscribe', params: { method: 'chain::market::trades' } });
    expect(local).toMatchObject({ id: 2, error: { code: -32601 } });
    expect((local as { error: { message: string } }).error.message).toMatch(/engine\.subscribe\(\)/);
    await expect(engine.subscribe('chain::market::vwap', { window: '2m' }, () => {})).rejects.toMatchObject({ code: -32602 });
    client.close();
  });

  it('over a raw port: the reply carries the id before any push, pushes are JSON text objects', async () => {
    const engine = await open();
    const { port2 } = channel(engine);
    const messages = collect(port2);
    port2.postMessage(subscribe(7, 'chain::priorityfee::block'));
    await settle();
    await ingestEach(engine, market.slice(0, 3));
    await settle();
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
    // count what the server posts on port1
    let posted = 0;
    const post = port1.postMessage.bind(port1);
    port1.postMessage = (message: unknown) => void (posted++, post(message));
    const client = connect(port2);
    const got: PushParams[] = [];
    const first = await client.subscribe('chain::market::trades', {}, (p) => void got.push(p));
    await client.subscribe('chain::priorityfee::block', {}, (p) => void got.push(p));
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
    const other = connect(port2);
    await other.subscribe('chain::market::trades', {}, () => {});
    other.close();
    await settle();
    posted = 0;
    await ingestEach(engine, market.slice(4, 5));
    expect(posted).toBe(1); // the one subscription left (priorityfee::block of the first client)

    port2.close(); // Node reports the close on port1: the server ends the port's subscriptions
    await settle();
    posted = 0;
    await ingestEach(engine, market.slice(5, 7));
    expect(posted).toBe(0);
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
      for (const push of pushes) {
        const time = rest.find((b) => String(b.block.slot) === push.block!.slot)!.block.timestamp;
        const answer = await engine.call(method, { window: method.endsWith('top_txs') ? '5m' : '1m', limit: 1000, at: encodeTimestamp(time + 1n) });
        if (method.endsWith('top_txs')) expect(push.result, method).toEqual(answer);
        else expect(push.result, method).toEqual(answer.slice(0, push.result!.length));
      }
    }
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
    const { port2 } = channel(engine);
    port2.postMessage(subscribe(1, 'chain::priorityfee::block'));
    port2.postMessage(subscribe(2, 'chain::market::ingestion'));
    await settle();
    const started = performance.now();
    await ingestEach(engine, market.slice(0, 60));
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(60);
    // now read what was queued
    const messages = collect(port2);
    await settle();
    const replies = messages.filter(Array.isArray);
    expect(replies).toHaveLength(2);
    const pushes = messages.filter((m) => !Array.isArray(m)) as { params: PushParams }[];
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
    const { port2 } = channel(engine);
    port2.postMessage(subscribe(1, 'chain::priorityfee::top_txs', { window: '5m' }));
    await settle();
    await ingestEach(engine, market.slice(0, 10));
    const messages = collect(port2);
    await settle();
    const pushes = messages.filter((m) => !Array.isArray(m)) as { params: PushParams }[];
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
    await expect(client.call('chain::replay', { data: '/etc' })).rejects.toMatchObject({ code: -32601 });
    client.close();
  });
});
