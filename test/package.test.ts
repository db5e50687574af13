/**
 * The package as a consumer sees it: `import { createEngine } from 'chainlens'` (self-reference, built
 * dist), its published types (test/types/consumer.ts must compile), reports that JSON.stringify
 * writes, and what `npm pack` would publish.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens } from '../src/generate/market.js';
import { writeDump } from '../src/generate/write-dump.js';
import { createTableFileWriter } from '../src/ingest/files/node-sink.js';
import { createEngine, type Engine } from '../src/index.node.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

describe('package entry', () => {
  it("resolves 'chainlens' to the Node build and answers a call", () => {
    const script = `
      import { createEngine, connect, METHODS } from 'chainlens';
      const engine = await createEngine();
      const response = await engine.request({ jsonrpc: '2.0', id: 1, method: 'chain::market::token', params: {} });
      console.log(JSON.stringify({ response, methods: METHODS.length, connect: typeof connect }));
      await engine.close();`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ response: [{ jsonrpc: '2.0', id: 1, result: [] }], methods: 12, connect: 'function' });
  });
});

describe('published types', () => {
  // every @ts-expect-error in the consumer must be an error: a typo'd method that compiled would fail the run
  it('compile a consumer that calls methods by name, params and wire records', () => {
    const result = spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'test', 'types', 'tsconfig.json'), '--noEmit'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  }, 120_000);
});

describe('reports', () => {
  const engines: Engine[] = [];
  const open = async () => {
    const engine = await createEngine({ minSamples: 10 });
    engines.push(engine);
    return engine;
  };
  afterAll(async () => {
    await Promise.all(engines.map((e) => e.close()));
  });
  const market = { minutes: 0.2, txPerBlock: 20, seed: 'reports' } as const;
  /** JSON.stringify writes it, and reading it back gives the same plain data. */
  const roundTrip = (report: unknown) => JSON.parse(JSON.stringify(report)) as Record<string, unknown>;

  it('of ingest and load serialize as they are', async () => {
    const engine = await open();
    const [block] = generateBlocks({ ...market, blocks: 1 });
    const ingested = await engine.ingest({
      tokens: generateTokens(), blocks: [block!.block], transactions: block!.transactions,
      trades: [...block!.trades, { ...block!.trades[0]!, base: 'not a mint' }],
    });
    expect(ingested.rejections.length).toBeGreaterThan(0);
    expect(roundTrip(ingested)).toEqual({ ...ingested });

    const dir = mkdtempSync(join(tmpdir(), 'chainlens-reports-'));
    await writeDump({ ...market, slot0: 500_000_000n }, (table) => createTableFileWriter(join(dir, `${table}.ndjson`), 'ndjson', table));
    const loaded = await engine.load(dir);
    expect(loaded.blocks).toBeGreaterThan(0);
    expect(roundTrip(loaded)).toEqual({ ...loaded });
  }, 120_000);

  it('of a replay serialize its times as ISO-8601 strings', async () => {
    const engine = await open();
    const blocks = [...generateBlocks(market)];
    const report = await engine.replay(blocks.map((b) => ({ blocks: [b.block], transactions: b.transactions, trades: b.trades })), { speed: Infinity });
    expect(report.blocks).toBe(blocks.length);
    const json = roundTrip(report);
    expect(json).toMatchObject({ blocks: report.blocks, stopped: false, firstTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/) });
    const { firstTime, lastTime, ...rest } = report;
    expect(json).toEqual({ ...rest, firstTime: isoOf(firstTime!), lastTime: isoOf(lastTime!) });
    expect(typeof firstTime).toBe('bigint'); // the report itself keeps ns
  }, 120_000);
});

/** ISO-8601 with 9 fraction digits of ns since the epoch (independent of the encoder). */
function isoOf(ns: bigint): string {
  const ms = ns / 1_000_000n;
  return `${new Date(Number(ms)).toISOString().slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}
