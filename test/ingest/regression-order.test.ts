/**
 * Regressions of ingest ordering: one bad row must never cost valid rows. Each case was a
 * reproduced bug (far-future slot, swapped rows in a file, a block time going back, duplicates);
 * the oracle is the same data loaded clean.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { writeDump } from '../../src/generate/write-dump.js';
import type { FileFormat } from '../../src/ingest/files/detect.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine, type Engine } from '../../src/index.node.js';

const MARKET = { blocks: 200, txPerBlock: 4, seed: 'regression-order' };
const U64_MAX = 2n ** 64n - 1n;

const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});
async function open(): Promise<Engine> {
  const engine = await createEngine({ minSamples: 1 });
  engines.push(engine);
  return engine;
}

async function dump(format: FileFormat): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `chainlens-order-${format}-`));
  await writeDump(MARKET, (table) => createTableFileWriter(join(dir, `${table}.${format}`), format, table));
  return dir;
}

/** What a load answers: every block's fee record, every trade. */
async function answers(engine: Engine) {
  return {
    blocks: await engine.call('chain::priorityfee::block', { limit: 1000 }),
    trades: await engine.call('chain::market::trades', { limit: 1000 }),
    fee: await engine.call('chain::priorityfee::fee', { window: '1m', limit: 100 }),
  };
}

describe('ingest ordering: a single bad row costs no valid row', () => {
  it('far-future slot: a trade at slot 2^64-1 is rejected alone, and later blocks still ingest', async () => {
    const clean = await open();
    await clean.load(await dump('ndjson'), { batchRows: 50 });
    const expected = await answers(clean);

    const dir = await dump('ndjson');
    const path = join(dir, 'trades.ndjson');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const bad = JSON.parse(lines[0]!) as Record<string, unknown>;
    lines.splice(4, 0, JSON.stringify({ ...bad, slot: U64_MAX.toString(), tx_index: 999 }));
    writeFileSync(path, `${lines.join('\n')}\n`);

    const engine = await open();
    const report = await engine.load(dir, { batchRows: 50 });
    expect(report.rejected).toBe(1);
    expect(report.rejections).toEqual([expect.objectContaining({ source: 'trades.ndjson', row: 5, field: 'slot' })]);
    expect(await answers(engine)).toEqual(expected);

    const [next] = [...generateBlocks({ ...MARKET, blocks: MARKET.blocks + 1 })].slice(-1) as GeneratedBlock[];
    const live = await engine.ingest({ blocks: [next!.block], transactions: next!.transactions, trades: next!.trades });
    expect(live.rejected).toBe(0);
  });

  for (const format of ['ndjson', 'parquet'] as const) {
    it(`two block rows swapped 150 rows apart (batchRows 50, ${format}) lose nothing`, async () => {
      const clean = await open();
      await clean.load(await dump(format), { batchRows: 50 });
      const expected = await answers(clean);

      // the generator's rows, written with block rows 0 and 150 swapped
      const generated = [...generateBlocks(MARKET)];
      const blocks = generated.map((g) => g.block);
      [blocks[0], blocks[150]] = [blocks[150]!, blocks[0]!];
      const dir = mkdtempSync(join(tmpdir(), 'chainlens-order-swapped-'));
      const tables = {
        tokens: generateTokens(MARKET), blocks, transactions: generated.flatMap((g) => g.transactions), trades: generated.flatMap((g) => g.trades),
      };
      for (const [table, rows] of Object.entries(tables)) {
        const writer = await createTableFileWriter(join(dir, `${table}.${format}`), format, table as keyof typeof tables);
        await writer.write(rows as never);
        await writer.close();
      }
      const engine = await open();
      const report = await engine.load(dir, { batchRows: 50 });
      expect(report.rejections).toEqual([]);
      expect(report.warnings).toEqual(expect.arrayContaining([`blocks.${format}: rows not in slot order; read whole and sorted before loading`]));
      expect(report.blocks).toBe(MARKET.blocks);
      expect(await answers(engine)).toEqual(expected);
    });
  }

  it('a block time that goes back (even by 1 ns) is taken as the previous block\'s, with a warning', async () => {
    const blocks = [...generateBlocks({ blocks: 3, txPerBlock: 4, seed: 'time-back' })];
    const back = blocks[1]!.block.timestamp - 1n;
    const previous = blocks[0]!.block.timestamp;
    const moved = blocks[1]!;
    const engine = await open();
    await engine.ingest({ blocks: [blocks[0]!.block], transactions: blocks[0]!.transactions, trades: blocks[0]!.trades });
    const report = await engine.ingest({
      blocks: [{ ...moved.block, timestamp: previous - 1n }],
      transactions: moved.transactions,
      trades: moved.trades.map((t) => ({ ...t, timestamp: previous - 1n })),
    });
    expect(back).toBeGreaterThan(previous - 1n);
    expect(report.rejected).toBe(0);
    expect(report.warnings).toEqual([expect.stringMatching(new RegExp(`slot ${moved.block.slot}: block time ${previous - 1n} ns is before the previous block's \\(${previous} ns\\); taken as ${previous} ns`))]);
    const fees = (await engine.call('chain::priorityfee::block', { limit: 10 })) as { slot: unknown; timestamp: unknown }[];
    expect(fees.map((f) => f.timestamp)).toEqual([fees[1]!.timestamp, fees[1]!.timestamp]);
    const third = await engine.ingest({ blocks: [blocks[2]!.block], transactions: blocks[2]!.transactions, trades: blocks[2]!.trades });
    expect(third.rejected).toBe(0);
  });

  it('duplicates are rejected by key: a repeated transaction line and a repeated trade', async () => {
    const [block] = [...generateBlocks({ blocks: 1, txPerBlock: 7, seed: 'duplicates' })] as GeneratedBlock[];
    const engine = await open();
    const trades = block!.trades.length > 0 ? [...block!.trades, block!.trades[0]!] : [];
    const report = await engine.ingest({
      blocks: [block!.block],
      transactions: [...block!.transactions, block!.transactions[3]!],
      trades,
    });
    const expected = [expect.objectContaining({ field: 'index', row: block!.transactions.length + 1, message: expect.stringMatching(/a second row for the transaction/) })];
    if (trades.length > 0) expected.push(expect.objectContaining({ field: 'fill_index', row: trades.length }));
    expect(report.rejections).toEqual(expected);
    const [fees] = (await engine.call('chain::priorityfee::block', { limit: 1 })) as { total_tx_count: unknown }[];
    expect(Number(fees!.total_tx_count)).toBe(block!.transactions.length);
    expect(await engine.call('chain::market::trades', { limit: 1000 })).toHaveLength(block!.trades.length);
  });
});
