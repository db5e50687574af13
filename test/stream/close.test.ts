/**
 * Ending streams from the serving side: `server.close()` ends the port's subscriptions (local ones
 * go on), `engine.close()` stops a running replay and ends every subscription, and `client.close()`
 * clears its pending acknowledgement timer. A child process that does all of it must exit by itself:
 * nothing the engine or the client started is left holding the event loop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { asTaggedReply } from '../../src/transport/tags.js';
import { connect, createEngine, type Engine, type PushParams } from '../../src/index.node.js';

const market = [...generateBlocks({ blocks: 30, txPerBlock: 20, seed: 'stream-close' })];
const input = (b: GeneratedBlock) => ({ blocks: [b.block], transactions: b.transactions, trades: b.trades });
/** Longer than any test: an acknowledgement timer of this delay is pending until cleared. */
const ACK_DELAY_MS = 3_600_000;

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.restoreAllMocks();
});

async function open(): Promise<Engine> {
  const engine = await createEngine({ minSamples: 10 });
  cleanup.push(() => engine.close());
  await engine.ingest({ tokens: generateTokens() });
  return engine;
}

function channel(): { port1: MessagePort; port2: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  cleanup.push(() => (port1.close(), port2.close()));
  return { port1, port2 };
}

/** The pushes the server posts on its side of a channel. */
function tapPushes(port: MessagePort): unknown[] {
  const pushes: unknown[] = [];
  const post = port.postMessage.bind(port);
  port.postMessage = (message: unknown) => {
    const parsed = typeof message === 'string' ? JSON.parse(message) : message;
    if (!Array.isArray(parsed) && !asTaggedReply(parsed)) pushes.push(parsed);
    post(message);
  };
  return pushes;
}

describe('closing', () => {
  it('server.close() ends the port\'s subscriptions; the engine\'s own go on', async () => {
    const engine = await open();
    const { port1, port2 } = channel();
    const pushes = tapPushes(port1);
    const server = engine.serve(port1);
    const client = connect(port2);
    cleanup.push(() => client.close());
    const remote: PushParams[] = [];
    const local: PushParams[] = [];
    await client.subscribe('chain::priorityfee::block', {}, (p) => void remote.push(p));
    await engine.subscribe('chain::priorityfee::block', {}, (p) => void local.push(p));
    await engine.ingest(input(market[0]!));
    await client.call('chain::market::token', {}); // replies follow the pushes posted before them
    expect([remote.length, local.length, pushes.length]).toEqual([1, 1, 1]);

    server.close();
    await engine.ingest(input(market[1]!));
    expect(pushes).toHaveLength(1); // nothing more posted on the port, not even a last push
    expect(remote).toHaveLength(1);
    expect(local.map((p) => p.block!.slot)).toEqual([String(market[0]!.block.slot), String(market[1]!.block.slot)]);
  });

  it('engine.close() stops a running replay and ends every subscription; later calls are refused', async () => {
    const engine = await open();
    const { port1, port2 } = channel();
    const pushes = tapPushes(port1);
    engine.serve(port1);
    const client = connect(port2);
    cleanup.push(() => client.close());
    const local: PushParams[] = [];
    let first: () => void;
    const firstPush = new Promise<void>((resolve) => (first = resolve));
    await client.subscribe('chain::market::ingestion', {}, () => undefined);
    await engine.subscribe('chain::market::ingestion', {}, (p) => void (local.push(p), first()));
    const replay = engine.replay(market.map(input), { speed: 1 }); // 12 s of blocks on the clock
    await firstPush;
    await engine.close();
    const report = await replay;
    expect(report.stopped).toBe(true);
    expect(report.blocks).toBeLessThan(market.length);
    expect(local).toHaveLength(report.blocks);
    expect(pushes).toHaveLength(report.blocks);
    expect(replay.state).toBe('done');
    await expect(engine.call('chain::market::token', {})).rejects.toThrow(/closed/);
    expect(() => engine.subscribe('chain::market::trades', {}, () => undefined)).toThrow(/closed/);
  });

  it('client.close() clears its pending acknowledgement timer', async () => {
    const engine = await open();
    const { port1, port2 } = channel();
    engine.serve(port1);
    const timers: unknown[] = [];
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const clearTimeoutSpy = vi.spyOn(globalThis, 'clearTimeout');
    const client = connect(port2, { ackDelayMs: ACK_DELAY_MS });
    await client.subscribe('chain::priorityfee::block', {}, () => undefined);
    await engine.ingest(input(market[0]!));
    await client.call('chain::market::token', {}); // the push has been read: its acknowledgement is scheduled
    for (const [k, call] of setTimeoutSpy.mock.calls.entries()) if (call[1] === ACK_DELAY_MS) timers.push(setTimeoutSpy.mock.results[k]!.value);
    expect(timers).toHaveLength(1);
    expect(clearTimeoutSpy.mock.calls.some(([t]) => t === timers[0])).toBe(false);
    client.close();
    expect(clearTimeoutSpy.mock.calls.some(([t]) => t === timers[0])).toBe(true);
  });

  it('a process that closes its engine and client exits by itself', () => {
    const dist = (path: string) => new URL(`../../dist/src/${path}`, import.meta.url);
    if (!existsSync(dist('index.node.js'))) throw new Error('dist/ is missing: run npm run build');
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-close-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, 'close.mjs');
    writeFileSync(script, `
      import { MessageChannel } from 'node:worker_threads';
      const { createEngine, connect } = await import(${JSON.stringify(dist('index.node.js').href)});
      const { generateBlocks, generateTokens } = await import(${JSON.stringify(dist('generate/market.js').href)});
      const market = [...generateBlocks({ blocks: 30, txPerBlock: 20, seed: 'stream-close' })];
      const input = (b) => ({ blocks: [b.block], transactions: b.transactions, trades: b.trades });
      const engine = await createEngine({ minSamples: 10 });
      await engine.ingest({ tokens: generateTokens() });
      const { port1, port2 } = new MessageChannel();
      engine.serve(port1);
      const client = connect(port2, { ackDelayMs: ${ACK_DELAY_MS} });
      let remote = 0;
      let first;
      const firstPush = new Promise((resolve) => (first = resolve));
      await client.subscribe('chain::priorityfee::block', {}, () => void (remote++, first()));
      await engine.subscribe('chain::market::ingestion', {}, () => undefined);
      const replay = engine.replay(market.map(input), { speed: 1 });
      await firstPush;
      await engine.close();
      const report = await replay;
      client.close();
      console.log(JSON.stringify({ remote, stopped: report.stopped }));
      // no process.exit: the process has to end by itself
    `);
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 120_000 });
    expect(child.signal, `the process did not exit by itself: ${child.stderr}`).toBeNull();
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ remote: 1, stopped: true });
  }, 150_000);
});
