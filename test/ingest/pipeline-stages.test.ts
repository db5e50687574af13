/**
 * The pipeline lets the event loop run between its stages (each engine's prepare, the store
 * write), queues the store write without waiting for it, and publishes every engine's state in one
 * synchronous stretch right after: a request waiting in the macrotask queue is served within one
 * stage and never sees engine A updated and engine B not.
 */
import { describe, expect, it } from 'vitest';
import { generateBlocks } from '../../src/generate/market.js';
import { createEngine } from '../../src/index.node.js';
import { IngestPipeline, type ChunkObserver } from '../../src/ingest/pipeline.js';
import { validateRows } from '../../src/ingest/validate.js';
import type { Store } from '../../src/store/store.js';
import { tickWhile } from '../helpers/ticks.js';

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
    const ticks = tickWhile(() => log.push('tick'));
    await pipeline.commit([await validateRows('blocks', [block!.block], 'test'), await validateRows('transactions', block!.transactions, 'test')]);
    ticks.stop();

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

describe('ingest of plain rows, in slices', () => {
  const market = (blocks: number) => [...generateBlocks({ blocks, txPerBlock: 400, seed: 'slices' })];

  it('validating many rows lets the event loop run between slices, and keeps every row in order', async () => {
    const transactions = market(30).flatMap((b) => b.transactions);
    const ticking = tickWhile();
    const batch = await validateRows('transactions', transactions, 'test');
    expect(ticking.stop()).toBeGreaterThan(1);
    expect(batch.rows.numRows).toBe(transactions.length);
    expect(batch.rowNumbers).toEqual(transactions.map((_, i) => i + 1));
    expect(batch.rows.getChild('signature')!.toArray()).toEqual(transactions.map((t) => t.signature));
  });

  it('calls not awaited one by one commit in call order, however long each takes to validate', async () => {
    const engine = await createEngine();
    try {
      const blocks = market(31);
      const rowsOf = (part: typeof blocks) => ({
        blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades),
      });
      // the first call validates 12,000 transactions in slices; the second, one block, is ready long before it
      const reports = await Promise.all([engine.ingest(rowsOf(blocks.slice(0, 30))), engine.ingest(rowsOf(blocks.slice(30)))]);
      expect(reports.map((r) => [r.blocks, r.rejected])).toEqual([[30, 0], [1, 0]]);
      expect(await engine.call('chain::priorityfee::block', { limit: 100 })).toHaveLength(31);
    } finally {
      await engine.close();
    }
  });
});
