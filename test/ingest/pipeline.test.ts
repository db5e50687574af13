/**
 * The ingest pipeline through a real engine (real DuckDB-WASM): block-atomic commits, slot order,
 * reconciled counts, cross-table rejections, and a concurrent query loop that must never see half
 * a block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';

const market = [...generateBlocks({ blocks: 24, txPerBlock: 120, seed: 'pipeline' })];

describe('ingest pipeline', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });
  afterAll(() => engine.close());

  it('answers nothing before anything is ingested', async () => {
    expect(await engine.call('chain::market::trades', {})).toEqual([]);
    expect(await engine.call('chain::market::ingestion', {})).toEqual([]);
  });

  it('ingests plain-object blocks and reconciles the counts', async () => {
    const first = market.slice(0, 12);
    const rows = {
      tokens: generateTokens(),
      blocks: first.map((b) => b.block),
      transactions: first.flatMap((b) => b.transactions),
      trades: first.flatMap((b) => b.trades),
    };
    const report = await engine.ingest(rows);
    const expected = rows.tokens.length + rows.blocks.length + rows.transactions.length + rows.trades.length;
    expect(report).toMatchObject({ read: expected, ingested: expected, rejected: 0, blocks: 12 });
    const trades = (await engine.call('chain::market::trades', { limit: 1000 })) as { signature: string; slot: string }[];
    expect(trades.map((t) => t.signature)).toEqual(rows.trades.map((t) => t.signature).reverse());
    const timings = (await engine.call('chain::market::ingestion', { limit: 300 })) as { slot: string; records: string }[];
    expect(timings.map((t) => BigInt(t.slot))).toEqual(first.map((b) => b.block.slot).reverse());
    // records = rows written for the block: its block row, transactions and trades
    expect(timings.map((t) => Number(t.records))).toEqual(first.map((b) => 1 + b.transactions.length + b.trades.length).reverse());
  });

  it('rejects a slot not newer than the newest ingested one, keeping the valid blocks of the call', async () => {
    const replayed = market[5];
    const next = market[12];
    const report = await engine.ingest({
      blocks: [replayed.block, next.block],
      transactions: [...replayed.transactions, ...next.transactions],
      trades: [...replayed.trades, ...next.trades],
    });
    const replayedRows = 1 + replayed.transactions.length + replayed.trades.length;
    expect(report.rejected).toBe(replayedRows);
    expect(report.ingested).toBe(1 + next.transactions.length + next.trades.length);
    expect(report.read).toBe(report.ingested + report.rejected);
    expect(report.rejections[0]).toMatchObject({ source: 'ingest#2 blocks', row: 1, field: 'slot' });
    expect(report.rejections[0].message).toContain(`slot ${replayed.block.slot}`);
  });

  it('rejects transactions without their block row and a bad field, naming call, row and field', async () => {
    const block = market[13];
    const bad = { ...block.trades[0], base: 'not-a-mint' };
    const orphan = market[14].transactions[0];
    const report = await engine.ingest({
      blocks: [block.block],
      transactions: [...block.transactions, orphan],
      trades: [bad, ...block.trades.slice(1)],
    });
    expect(report.rejections).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'ingest#3 trades', row: 1, field: 'base' }),
        expect.objectContaining({ source: 'ingest#3 transactions', row: block.transactions.length + 1, field: 'slot' }),
      ]),
    );
    expect(report.read).toBe(report.ingested + report.rejected);
    expect(report.rejected).toBe(2);
  });

  it('answers queries during an ingest, and never with part of a block', async () => {
    const rest = market.slice(15);
    const tradesPerSlot = new Map(rest.map((b) => [String(b.block.slot), b.trades.length]));
    // ordering recorded by callbacks: the ingest under way (its number) from its call until its promise resolves
    let ingesting: number | undefined;
    let stop = false;
    let during = 0;
    const reader = (async () => {
      while (!stop) {
        const issued = ingesting;
        const [timings, trades] = await Promise.all([
          engine.call('chain::market::ingestion', { limit: 300 }) as Promise<{ slot: string }[]>,
          engine.call('chain::market::trades', { limit: 1000 }) as Promise<{ slot: string }[]>,
        ]);
        // both were asked and answered while one ingest was under way
        if (issued !== undefined && ingesting === issued) during++;
        // blocks are committed in slot order: the ones an answer holds are the first ones
        const recorded = rest.map((b) => timings.some((t) => t.slot === String(b.block.slot)));
        const missing = recorded.indexOf(false);
        expect(missing < 0 || !recorded.slice(missing).includes(true), 'ingestion records out of slot order').toBe(true);
        const seen = new Map<string, number>();
        for (const t of trades) seen.set(t.slot, (seen.get(t.slot) ?? 0) + 1);
        for (const [slot, expected] of tradesPerSlot) {
          const count = seen.get(slot) ?? 0;
          expect(count === 0 || count === expected, `slot ${slot}: ${count} of ${expected} trades`).toBe(true);
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    reader.catch(() => (stop = true)); // a failed check ends the loop; awaited below
    for (const [i, b] of rest.entries()) {
      ingesting = i;
      await engine.ingest({ blocks: [b.block], transactions: b.transactions, trades: b.trades });
      ingesting = undefined;
      await new Promise((r) => setImmediate(r)); // the reader's turn between ingests too
    }
    stop = true;
    await reader;
    expect(during, 'queries asked and answered while an ingest was under way').toBeGreaterThan(0);
    const last = (await engine.call('chain::market::trades', { limit: 1 })) as { slot: string }[];
    expect(BigInt(last[0].slot)).toBe(rest.filter((b) => b.trades.length > 0).at(-1)!.block.slot);
  });
});
