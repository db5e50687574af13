/**
 * The pipeline lets the event loop run between its stages (each engine's prepare, the store
 * write), queues the store write without waiting for it, and publishes every engine's state in one
 * synchronous stretch right after: a request waiting in the macrotask queue is served within one
 * stage and never sees engine A updated and engine B not.
 */
import { describe, expect, it } from 'vitest';
import { generateBlocks } from '../../src/generate/market.js';
import { IngestPipeline, type ChunkObserver } from '../../src/ingest/pipeline.js';
import { validateRows } from '../../src/ingest/validate.js';
import type { Store } from '../../src/store/store.js';

describe('ingest pipeline stages', () => {
  it('yields between stages, applies in one stretch, right after queuing the store commit', async () => {
    const log: string[] = [];
    const store = {
      commit: async (unit: object) => void log.push(Object.keys(unit).length > 0 ? 'store commit' : 'timings write'),
      appendRecords: async () => void log.push('timings write'),
    } as unknown as Store;
    const observers: ChunkObserver[] = ['a', 'b', 'c'].map((name) => ({
      prepare: () => {
        log.push(`prepare ${name}`);
        return { records: [], apply: () => void log.push(`apply ${name}`) };
      },
    }));
    const pipeline = new IngestPipeline(store, observers);
    const [block] = [...generateBlocks({ blocks: 1, txPerBlock: 10, seed: 'stages' })];
    let ticking = true;
    const tick = () => {
      log.push('tick');
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await pipeline.commit([validateRows('blocks', [block!.block], 'test'), validateRows('transactions', block!.transactions, 'test')]);
    ticking = false;

    const stages = log.filter((entry) => entry !== 'tick');
    expect(stages).toEqual(['prepare a', 'prepare b', 'prepare c', 'store commit', 'apply a', 'apply b', 'apply c', 'timings write']);
    const at = (entry: string) => log.indexOf(entry);
    const ticksBetween = (from: string, to: string) => log.slice(at(from) + 1, at(to)).filter((e) => e === 'tick').length;
    for (const [from, to] of [['prepare a', 'prepare b'], ['prepare b', 'prepare c'], ['prepare c', 'store commit']]) {
      expect(ticksBetween(from!, to!), `${from} -> ${to}`).toBeGreaterThan(0);
    }
    expect(log.slice(at('store commit'), at('timings write') + 1)).toEqual(['store commit', 'apply a', 'apply b', 'apply c', 'timings write']);
  });
});
