/**
 * The live top_txs list is kept only once asked or streamed: until then a live answer is the as-of
 * answer at the newest block, and the chunk after the first ask starts the list from the store. As
 * blocks go on being ingested (chunks of any size, the window moving past its first blocks), every
 * live answer equals a fresh as-of answer at the newest block, and in the end the engine that kept
 * its list from its first block (a subscription) answers the same. A subscription made half-way
 * starts the list from the store too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { mulberry32 } from '../helpers/prng.js';

const blocks = [...generateBlocks({ minutes: 7, txPerBlock: 8, seed: 'lazy-top-list' })];
const engines: Engine[] = [];
afterAll(async () => {
  for (const e of engines) await e.close();
});

const ingest = (engine: Engine, part: readonly GeneratedBlock[]) =>
  engine.ingest({ blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades) });

async function engineWithTokens(): Promise<Engine> {
  const engine = await createEngine({ minSamples: 1 });
  engines.push(engine);
  await engine.ingest({ tokens: generateTokens() });
  return engine;
}

const live = (engine: Engine) => engine.call('chain::priorityfee::top_txs', { window: '5m', limit: 100 });

describe('the live top list, kept once asked', () => {
  it('answers as a fresh as-of answer does while blocks are ingested, and as a list kept from the first block', async () => {
    const eager = await engineWithTokens();
    await eager.subscribe('chain::priorityfee::top_txs', { window: '5m' }, () => undefined);
    await ingest(eager, blocks);

    const lazy = await engineWithTokens();
    const random = mulberry32(17);
    let at = Math.floor(blocks.length * 0.4);
    await ingest(lazy, blocks.slice(0, at));
    let checked = 0;
    while (at < blocks.length) {
      const newest = blocks[at - 1]!.block.timestamp;
      const asOf = await lazy.call('chain::priorityfee::top_txs', { window: '5m', limit: 100, at: encodeTimestamp(newest + 1n) });
      expect(asOf.length).toBeGreaterThan(0);
      expect(await live(lazy), `live after block ${at}`).toEqual(asOf);
      checked++;
      const size = 1 + Math.floor(random() * 60);
      await ingest(lazy, blocks.slice(at, at + size));
      at += size;
    }
    expect(checked).toBeGreaterThan(5);
    expect(await live(lazy)).toEqual(await live(eager));
  }, 120_000);

  it('starts from the store when a subscription first keeps it', async () => {
    const eager = await engineWithTokens();
    await eager.subscribe('chain::priorityfee::top_txs', { window: '5m' }, () => undefined);
    await ingest(eager, blocks);
    const lazy = await engineWithTokens();
    const half = Math.floor(blocks.length / 2);
    await ingest(lazy, blocks.slice(0, half));
    const pushes: unknown[] = [];
    await lazy.subscribe('chain::priorityfee::top_txs', { window: '5m' }, (push) => void pushes.push(push.result));
    for (let at = half; at < blocks.length; at += 40) await ingest(lazy, blocks.slice(at, at + 40));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pushes.length).toBe(blocks.length - half);
    expect(pushes.at(-1)).toEqual(await live(lazy));
    expect(await live(lazy)).toEqual(await live(eager));
  }, 120_000);
});
