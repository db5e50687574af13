/**
 * Closed fee windows of a length nobody has listed are made when a query first lists them, while
 * blocks go on being ingested one call at a time. Every batch is as of one block (the window in
 * progress and the newest block fee record agree), its closed windows all end before the window in
 * progress, newest first without a gap, and each closed window any reader saw equals the one an
 * engine that listed every length from its first block made as the window closed. A window in
 * progress asked live while blocks come one at a time is kept up block by block (no kernel call per
 * answer), and answers what the kernel computes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import type { ResponseEntry } from '../../src/rpc/dispatch.js';

const blocks = [...generateBlocks({ minutes: 6.5, txPerBlock: 6, seed: 'lazy-fee-windows' })];
const WINDOWS = ['1m', '5m'] as const;
type Row = Record<string, string>;

const engines: Engine[] = [];
afterAll(async () => {
  for (const e of engines) await e.close();
});

const ingest = (engine: Engine, part: readonly GeneratedBlock[]) =>
  engine.ingest({ blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades) });

const batch = (at?: string) => [
  { jsonrpc: '2.0', id: 0, method: 'chain::priorityfee::block', params: { limit: 1, ...(at ? { at } : {}) } },
  ...WINDOWS.map((window, k) => ({ jsonrpc: '2.0', id: k + 1, method: 'chain::priorityfee::fee', params: { window, limit: 1000, ...(at ? { at } : {}) } })),
];

const results = (reply: ResponseEntry[]) =>
  reply.map((entry) => {
    if (!('result' in entry)) throw new Error(`an error: ${JSON.stringify(entry)}`);
    return entry.result as Row[];
  });

/** An engine holding the token list only. */
async function engineWithTokens(): Promise<Engine> {
  const engine = await createEngine({ minSamples: 1 });
  engines.push(engine);
  await engine.ingest({ tokens: generateTokens() });
  return engine;
}

/** An engine that lists every length after its first block: each window is made as it closes. */
async function eagerEngine(): Promise<Engine> {
  const eager = await engineWithTokens();
  await ingest(eager, blocks.slice(0, 1));
  for (const window of WINDOWS) await eager.call('chain::priorityfee::fee', { window, limit: 2 });
  await ingest(eager, blocks.slice(1));
  return eager;
}

describe('fee windows made when first listed', () => {
  let eager: Engine;
  beforeAll(async () => void (eager = await eagerEngine()), 60_000);

  it('answer as of one block while blocks are ingested, and equal the windows made as they closed', async () => {
    const lazy = await engineWithTokens();

    // the lazy engine is first asked about four minutes in: three 1m windows are pending then, no 5m one
    const first = Math.floor(blocks.length * 0.6);
    await ingest(lazy, blocks.slice(0, first));
    const seen = new Map<string, Row>();
    const violations: string[] = [];
    let done = false;
    let batches = 0;
    const reader = async (at?: () => string) => {
      while (!done) {
        const [[newest], ...windows] = results(await lazy.request(batch(at?.())));
        batches++;
        for (const list of windows) {
          const [current, ...closed] = list;
          if (!current || !newest) continue;
          if (current.timestamp !== newest.timestamp) violations.push(`window in progress as of ${current.timestamp}, newest block ${newest.timestamp}`);
          let next = current;
          for (const w of closed) {
            if (w.window_end !== next.window_start) violations.push(`${w.window_start}..${w.window_end} before ${next.window_start}`);
            seen.set(`${w.window_duration} ${w.window_start}`, w);
            next = w;
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    // live readers, and one as of a moment half-way through the blocks already in
    const halfWay = new Date(Number(blocks[Math.floor(first / 2)]!.block.timestamp / 1_000_000n)).toISOString();
    const readers = [reader(), reader(), reader(() => halfWay)];
    for (const b of blocks.slice(first)) await ingest(lazy, [b]);
    done = true;
    await Promise.all(readers);

    expect(violations).toEqual([]);
    expect(batches).toBeGreaterThan(blocks.length - first);
    const made = new Map<string, Row>();
    for (const window of WINDOWS) {
      const [, ...closed] = (await eager.call('chain::priorityfee::fee', { window, limit: 1000 })) as unknown as Row[];
      for (const w of closed) made.set(`${w.window_duration} ${w.window_start}`, w);
    }
    expect(made.size).toBeGreaterThanOrEqual(6);
    for (const [key, w] of seen) expect(w, key).toEqual(made.get(key));
    expect([...seen.keys()].sort()).toEqual([...made.keys()].sort());
    for (const window of WINDOWS) {
      expect(await lazy.call('chain::priorityfee::fee', { window, limit: 1000 })).toEqual(await eager.call('chain::priorityfee::fee', { window, limit: 1000 }));
    }
  }, 120_000);

  it('made before a subscription\'s first push, when a stream makes the length eager', async () => {
    const engine = await engineWithTokens();
    const first = Math.floor(blocks.length * 0.6);
    await ingest(engine, blocks.slice(0, first));
    const pushes: Row[] = [];
    await engine.subscribe('chain::priorityfee::fee', { window: '1m' }, (push) => void pushes.push(...(push.result as unknown as Row[])));
    await ingest(engine, blocks.slice(first, first + 150));
    await ingest(engine, blocks.slice(first + 150));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = async (e: Engine, window: (typeof WINDOWS)[number]) => (await e.call('chain::priorityfee::fee', { window, limit: 1000 })) as unknown as Row[];
    for (const window of WINDOWS) expect(await answer(engine, window), window).toEqual(await answer(eager, window));
    // every window the stream pushed as closed is the eager engine's
    const closed = new Map((await answer(eager, '1m')).slice(1).map((w) => [w.window_start, w]));
    const pushedClosed = pushes.filter((w) => closed.has(w.window_start!) && w.timestamp === closed.get(w.window_start!)!.timestamp);
    expect(pushedClosed.length).toBeGreaterThan(0);
    for (const w of pushedClosed) expect(w).toEqual(closed.get(w.window_start!));
  }, 120_000);

  it('closed from their incremental statistics when streamed: the windows the kernel made as they closed', async () => {
    // one block an ingest: every window closes at the first block of a chunk, its statistics kept through the chunk before
    const engine = await engineWithTokens();
    const pushes: Row[] = [];
    for (const window of WINDOWS) {
      await engine.subscribe('chain::priorityfee::fee', { window }, (push) => void pushes.push(...(push.result as unknown as Row[])));
    }
    for (const b of blocks) await ingest(engine, [b]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let closedCompared = 0;
    for (const window of WINDOWS) {
      const [, ...made] = (await eager.call('chain::priorityfee::fee', { window, limit: 1000 })) as unknown as Row[];
      const [, ...mine] = (await engine.call('chain::priorityfee::fee', { window, limit: 1000 })) as unknown as Row[];
      expect(mine, window).toEqual(made);
      // each closed window was pushed once more as closed (after the block that closed it), equal to the kernel's
      for (const w of made) {
        const pushed = pushes.filter((p) => p.window_duration === w.window_duration && p.window_start === w.window_start);
        expect(pushed.at(-1), `${window} ${w.window_start}`).toEqual(w);
        closedCompared++;
      }
    }
    expect(closedCompared).toBeGreaterThanOrEqual(7);
  }, 120_000);

  it('kept up block by block once asked live while blocks come one at a time: the kernel\'s answer each block', async () => {
    const [asked, other] = [await engineWithTokens(), await engineWithTokens()];
    const first = Math.floor(blocks.length * 0.5);
    for (const engine of [asked, other]) await ingest(engine, blocks.slice(0, first));
    let compared = 0;
    for (const b of blocks.slice(first, first + 200)) {
      for (const engine of [asked, other]) await ingest(engine, [b]);
      // as of just after the newest block: the other engine's window in progress computed by the kernel worker (never asked live)
      const at = new Date(Number(b.block.timestamp / 1_000_000n) + 1).toISOString();
      for (const window of WINDOWS) {
        const [live] = await asked.call('chain::priorityfee::fee', { window, limit: 1 });
        const [computed] = await other.call('chain::priorityfee::fee', { window, limit: 1, at });
        expect(live, `${window} after slot ${b.block.slot}`).toEqual(computed);
        compared++;
      }
    }
    expect(compared).toBe(400);
  }, 120_000);
});
