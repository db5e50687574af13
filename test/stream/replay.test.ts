/**
 * engine.replay: the simulated clock (block b released at start + (t_b - t_0) / speed), pause,
 * resume, a speed change and stop, from/to, rows in memory, and a replay at speed Infinity ending with the same
 * answers as loading the dump in one go.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { writeDump } from '../../src/generate/write-dump.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine, METHODS, type Engine, type PushParams, type Replay } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { busiestAccounts } from '../../src/generate/accounts.js';

const MARKET = { minutes: 0.3, txPerBlock: 20, seed: 'replay' } as const;
const market = [...generateBlocks(MARKET)];
const asInput = (b: GeneratedBlock) => ({ blocks: [b.block], transactions: b.transactions, trades: b.trades });

let engines: Engine[] = [];
async function open(): Promise<Engine> {
  const engine = await createEngine({ minSamples: 10 });
  engines.push(engine);
  // open the store and start the kernel worker first (a block a day earlier), so that the timings below measure the replay
  const [warm] = generateBlocks({ blocks: 1, txPerBlock: 20, slot0: 1_000n, start: market[0]!.block.timestamp - 86_400_000_000_000n });
  await engine.ingest({ tokens: generateTokens(), ...asInput(warm!) });
  return engine;
}
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

describe('engine.replay', () => {
  it('releases blocks on the simulated clock: block b once the clock has reached t_b', async () => {
    const engine = await open();
    const part = market.slice(0, 12); // 4.4 s of market
    // the replay's own clock when each block's push came (pushes follow the block's commit)
    const clockAtPush: [string, bigint][] = [];
    let replay: Replay | undefined;
    await engine.subscribe('chain::market::ingestion', {}, (p) => void clockAtPush.push([p.block!.slot, replay!.time!]));
    replay = engine.replay(part.map(asInput), { speed: 10 });
    expect(replay.state).toBe('running');
    const report = await replay;
    expect(report).toMatchObject({ blocks: 12, stopped: false, rejected: 0, firstTime: part[0]!.block.timestamp, lastTime: part[11]!.block.timestamp });
    expect(clockAtPush.map(([slot]) => slot)).toEqual(part.map((b) => String(b.block.slot)));
    part.forEach((b, i) => expect(clockAtPush[i]![1], `slot ${b.block.slot}`).toBeGreaterThanOrEqual(b.block.timestamp));
    expect(replay.state).toBe('done');
    expect(replay.time).toBe(part[11]!.block.timestamp);
  });

  it('pauses, resumes and stops; idle() says no commit is under way', async () => {
    const engine = await open();
    const part = market.slice(0, 30); // 11.6 s of market at speed 1
    const slots: string[] = [];
    let onPush: (() => void) | undefined;
    await engine.subscribe('chain::market::ingestion', {}, (p) => {
      slots.push(p.block!.slot);
      onPush?.();
    });
    /** The next push (a block committed): an event, not a length of time. */
    const nextPush = () => new Promise<void>((resolve) => (onPush = () => ((onPush = undefined), resolve())));
    let replay: Replay | undefined;
    // paused from inside the first push: the clock stops at the first block's commit
    const first = new Promise<void>((resolve) => (onPush = () => ((onPush = undefined), replay!.pause(), resolve())));
    replay = engine.replay(part.map(asInput), { speed: 1 });
    await first;
    expect(replay.state).toBe('paused');
    await replay.idle(); // the commit under way (of the blocks due with the first) is over
    const atPause = slots.length;
    const clock = replay.time!;
    expect(atPause).toBeLessThan(30);
    // wall time passes the moment the next block is due (it may be due already: the first commit took
    // longer than the gap): paused, it stays held back and the clock stands still
    const due = performance.now() + Number(part[atPause]!.block.timestamp - clock) / 1e6;
    while (performance.now() <= due) await new Promise((resolve) => setTimeout(resolve, due - performance.now() + 1));
    await replay.idle();
    expect(slots.length).toBe(atPause);
    expect(replay.time).toBe(clock);
    expect(replay.state).toBe('paused');
    // resumed: the next block comes, the clock goes on from where it stood
    const next = nextPush();
    replay.resume();
    expect(replay.state).toBe('running');
    await next;
    expect(slots.length).toBeGreaterThan(atPause);
    expect(replay.time!).toBeGreaterThanOrEqual(part[atPause]!.block.timestamp);
    replay.stop();
    expect(replay.state).toBe('stopped');
    const report = await replay.done;
    await replay.idle(); // resolved once ended
    expect(replay.state).toBe('done');
    expect(report.stopped).toBe(true);
    expect(report.blocks).toBeLessThan(30);
    expect(report.blocks).toBe(slots.length);
    expect(slots).toEqual(part.slice(0, slots.length).map((b) => String(b.block.slot)));
    // the warm-up block, a day before, went with the replay's cut (it keeps 15 minutes)
    expect(await engine.call('chain::priorityfee::block', { limit: 100 })).toHaveLength(report.blocks);
  });

  it('changes speed on the way: the clock goes on from where it stood, at the new pace', async () => {
    const engine = await open();
    const part = market.slice(0, 40); // 15.6 s of market
    const clockAtPush: bigint[] = [];
    let replay: Replay | undefined;
    let onPush: (() => void) | undefined;
    await engine.subscribe('chain::market::ingestion', {}, () => {
      clockAtPush.push(replay!.time!);
      onPush?.();
    });
    const firstPush = new Promise<void>((resolve) => (onPush = resolve));
    replay = engine.replay(part.map(asInput), { speed: 0.001 }); // the second block would be due in minutes
    await firstPush;
    onPush = undefined;
    await replay.idle();
    const slow = replay.time!;
    expect(clockAtPush).toHaveLength(1);
    replay.setSpeed(1000); // the rest is due within 16 ms
    const after = replay.time! - slow; // the clock goes on from where it stood, not from t0 at the new pace
    expect(after).toBeGreaterThanOrEqual(0n);
    expect(after).toBeLessThan(1_000_000_000n); // the market's second the next wall millisecond brings at 1000x
    const report = await replay;
    expect(report.blocks).toBe(40);
    part.forEach((b, i) => expect(clockAtPush[i]!, `slot ${b.block.slot}`).toBeGreaterThanOrEqual(b.block.timestamp));
    expect(() => replay!.setSpeed(0)).toThrow(RangeError);
  });

  it('keeps the blocks with from <= time < to; tokens always', async () => {
    const engine = await open();
    const from = market[5]!.block.timestamp;
    const to = market[15]!.block.timestamp;
    const report = await engine.replay(market.map(asInput), { speed: Infinity, from: encodeTimestamp(from), to: encodeTimestamp(to) });
    expect(report).toMatchObject({ blocks: 10, firstTime: from, lastTime: market[14]!.block.timestamp });
    const blocks = (await engine.call('chain::priorityfee::block', { limit: 100 })) as { slot: string }[];
    expect(blocks.map((b) => b.slot)).toEqual(market.slice(5, 15).reverse().map((b) => String(b.block.slot))); // the warm-up block went with the cut
    expect(() => engine.replay([], { speed: 0 })).toThrow(RangeError);
    expect(() => engine.replay([], { from: 'yesterday' })).toThrow(RangeError);
  });

  it('at speed Infinity ends with the answers of loading the dump at once, pushing one point per block', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-replay-'));
    await writeDump({ ...MARKET, minutes: 1.2 }, (table) => createTableFileWriter(join(dir, `${table}.parquet`), 'parquet', table));
    const loaded = await open();
    const replayed = await open();
    const loadReport = await loaded.load(dir);
    const pushes: PushParams[] = [];
    await replayed.subscribe('chain::priorityfee::recommendation', { window: '1m' }, (p) => void pushes.push(p));
    // everything kept: the default 15 minutes would prune the warm-up block a day before (and its market history)
    const report = await replayed.replay(dir, { speed: Infinity, retain: 'all' });
    expect(report).toMatchObject({ read: loadReport.read, ingested: loadReport.ingested, rejected: 0, blocks: loadReport.blocks, stopped: false });
    expect(pushes).toHaveLength(report.blocks);
    const hot = busiestAccounts(generateBlocks({ ...MARKET, minutes: 1.2 }), 3);
    for (const method of METHODS) {
      const params: Record<string, unknown> = {};
      const spec = method.params;
      if (spec.window?.kind === 'window') params.window = spec.window.default ?? spec.window.values[1] ?? spec.window.values[0];
      if (spec.limit?.kind === 'limit') params.limit = spec.limit.max;
      if (spec.accounts?.kind === 'keys') params.accounts = hot;
      const a = (await loaded.call(method.name, params)) as Record<string, unknown>[];
      const b = (await replayed.call(method.name, params)) as Record<string, unknown>[];
      expect(b.length, method.name).toBe(a.length);
      if (method.name === 'chain::market::ingestion') {
        // timings differ by nature; what was ingested per slot does not
        const keep = (r: Record<string, unknown>) => [r.id, r.slot, r.timestamp, r.batches, r.records];
        expect(b.map(keep)).toEqual(a.map(keep));
      } else expect(b, method.name).toEqual(a);
    }
  });
});
