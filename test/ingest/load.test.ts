/**
 * engine.load over dumps written by the generator in every format: identical answers, equal to the
 * generator's own rows (the independent oracle); and a hand-written malformed dump that loads its
 * valid rows and names every bad one by file, row and field.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens } from '../../src/generate/market.js';
import { writeDump } from '../../src/generate/write-dump.js';
import type { FileFormat } from '../../src/ingest/files/detect.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import type { LoadProgress } from '../../src/ingest/load.js';
import { createEngine, type Engine } from '../../src/index.node.js';

const MARKET = { blocks: 40, txPerBlock: 150, seed: 'load-test' };
const FORMATS: FileFormat[] = ['parquet', 'ndjson', 'csv', 'arrow'];

describe('loading generated dumps in every format', () => {
  const answers = new Map<FileFormat, { trades: unknown[]; tokens: unknown[]; blocks: number; ingested: number }>();
  const progress: LoadProgress[] = [];

  beforeAll(async () => {
    for (const format of FORMATS) {
      const dir = mkdtempSync(join(tmpdir(), `chainlens-${format}-`));
      await writeDump(MARKET, (table) => createTableFileWriter(join(dir, `${table}.${format}`), format, table));
      const engine = await createEngine();
      try {
        const report = await engine.load(dir, { batchRows: 1000, onProgress: (p) => format === 'parquet' && progress.push(p) });
        expect(report.rejected, `${format}: ${JSON.stringify(report.rejections.slice(0, 3))}`).toBe(0);
        answers.set(format, {
          trades: await engine.call('chain::market::trades', { limit: 1000 }),
          tokens: await engine.call('chain::market::token', {}),
          blocks: report.blocks,
          ingested: report.ingested,
        });
      } finally {
        await engine.close();
      }
    }
  });

  it('gives identical answers to trades and token in all four formats', () => {
    const [first, ...others] = FORMATS.map((f) => answers.get(f)!);
    for (const other of others) expect(other).toEqual(first);
  });

  it('reports progress in rows, committed blocks and files, ending with all of them', () => {
    expect(progress.length).toBeGreaterThan(2);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.rows).toBeGreaterThanOrEqual(progress[i - 1]!.rows);
      expect(progress[i]!.blocks).toBeGreaterThanOrEqual(progress[i - 1]!.blocks);
    }
    const last = progress.at(-1)!;
    const { blocks, ingested } = answers.get('parquet')!;
    expect(last).toMatchObject({ blocks, rows: ingested, files: last.totalFiles });
  });

  it('answers what the generator produced', () => {
    const market = [...generateBlocks(MARKET)];
    const expectedTrades = market.flatMap((b) => b.trades).reverse();
    const { trades, tokens, blocks, ingested } = answers.get('parquet')!;
    expect(blocks).toBe(market.length);
    expect(ingested).toBe(generateTokens().length + market.reduce((n, b) => n + 1 + b.transactions.length + b.trades.length, 0));
    expect((trades as { signature: string; base_amount: string }[]).map((t) => [t.signature, t.base_amount])).toEqual(
      expectedTrades.slice(0, 1000).map((t) => [t.signature, String(t.base_amount)]),
    );
    expect((tokens as { mint: string }[]).map((t) => t.mint)).toEqual(generateTokens().map((t) => t.mint).sort());
  });
});

describe('loading a malformed dump', () => {
  let engine: Engine;
  let dir: string;
  const SOL = 'So11111111111111111111111111111111111111112';
  const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  const SIGNER = 'BUbpYVnAqCUD6dZGSMxW48PzcY9UmHHcdo2hV465kbb2';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chainlens-bad-'));
    writeFileSync(join(dir, 'blocks.csv'), 'slot,timestamp\n100,2026-01-01T00:00:00Z\n101,1767225600.4\n102,yesterday\n');
    const trade = (sig: string, slot: number, patch: Record<string, unknown> = {}) =>
      JSON.stringify({
        signature: sig, signer: SIGNER, slot, tx_index: 0, fill_index: 0, timestamp: slot === 100 ? '2026-01-01T00:00:00Z' : 1767225600.4,
        base: SOL, quote: USDC, base_amount: 1_000_000_000, quote_amount: 140_000_000, base_decimals: 9, quote_decimals: 6, is_buy: true,
        ...patch,
      });
    const lines = [
      trade('good-1', 100),
      trade('bad-mint', 100, { base: 'not*base58' }),
      trade('negative', 101, { base_amount: -5 }),
      trade('not-a-number', 101, { quote_amount: 'lots' }),
      trade('good-2', 101),
      trade('bad-time', 101, { timestamp: 'next tuesday' }),
    ];
    writeFileSync(join(dir, 'trades.ndjson'), lines.join('\n') + '\n' + trade('truncated', 101).slice(0, 40));
    // a tokens file without its required `decimals` column
    writeFileSync(join(dir, 'tokens.csv'), `mint,name,symbol\n${SOL},Solana,SOL\n`);
    engine = await createEngine();
  });
  afterAll(() => engine.close());

  it('keeps the valid rows and reports each bad one with file, row and field', async () => {
    const report = await engine.load(dir);
    const where = report.rejections.map((r) => `${r.source}:${r.row}:${r.field}`);
    expect(where).toEqual(
      expect.arrayContaining([
        'blocks.csv:4:timestamp',
        'trades.ndjson:2:base',
        'trades.ndjson:3:base_amount',
        'trades.ndjson:4:quote_amount',
        'trades.ndjson:6:timestamp',
        'tokens.csv:2:decimals',
      ]),
    );
    expect(where.some((w) => w.startsWith('trades.ndjson:7:'))).toBe(true); // the truncated last line
    expect(report.read).toBe(report.ingested + report.rejected);
    const trades = (await engine.call('chain::market::trades', {})) as { signature: string }[];
    expect(trades.map((t) => t.signature)).toEqual(['good-2', 'good-1']);
  });
});
