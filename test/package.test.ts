/**
 * The package as a consumer sees it: `import { createEngine } from 'chainlens'` (self-reference, built
 * dist), its published types (test/types/consumer.ts must compile), reports that JSON.stringify
 * writes, the README quickstart run as written, and what `npm pack` would publish.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens } from '../src/generate/market.js';
import { writeDump } from '../src/generate/write-dump.js';
import { createTableFileWriter } from '../src/ingest/files/node-sink.js';
import { createEngine, type Engine } from '../src/index.node.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const MARKET = { minutes: 0.2, txPerBlock: 20, seed: 'package' } as const;

/** A tiny dump (12 s of market from 2026-01-01T00:00:00Z, slots from 388,000,000), written once. */
let dump: string;
beforeAll(async () => {
  dump = mkdtempSync(join(tmpdir(), 'chainlens-package-dump-'));
  await writeDump(MARKET, (table) => createTableFileWriter(join(dump, `${table}.ndjson`), 'ndjson', table));
});

/** A folder outside the repository whose node_modules/chainlens is this package, as after `npm install`. */
function consumerFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'chainlens-consumer-'));
  mkdirSync(join(folder, 'node_modules'));
  symlinkSync(ROOT, join(folder, 'node_modules', 'chainlens'), 'dir');
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  return folder;
}

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
    expect(JSON.parse(result.stdout)).toEqual({ response: [{ jsonrpc: '2.0', id: 1, result: [] }], methods: 14, connect: 'function' });
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
  /** JSON.stringify writes it, and reading it back gives the same plain data. */
  const roundTrip = (report: unknown) => JSON.parse(JSON.stringify(report)) as Record<string, unknown>;

  it('of ingest and load serialize as they are', async () => {
    const engine = await open();
    const loaded = await engine.load(dump);
    expect(loaded.blocks).toBeGreaterThan(0);
    expect(roundTrip(loaded)).toEqual({ ...loaded });

    // a later block, one of its trades with a bad mint: a report with a rejection
    const [block] = generateBlocks({ ...MARKET, blocks: 1, slot0: 388_100_000n, start: 1_767_226_000_000_000_000n });
    const ingested = await engine.ingest({
      tokens: generateTokens(), blocks: [block!.block], transactions: block!.transactions,
      trades: [...block!.trades, { ...block!.trades[0]!, base: 'not a mint' }],
    });
    expect(ingested.rejections.length).toBeGreaterThan(0);
    expect(roundTrip(ingested)).toEqual({ ...ingested });
  }, 120_000);

  it('of a replay serialize its times as ISO-8601 strings', async () => {
    const engine = await open();
    const blocks = [...generateBlocks(MARKET)];
    const report = await engine.replay(blocks.map((b) => ({ blocks: [b.block], transactions: b.transactions, trades: b.trades })), { speed: Infinity });
    expect(report.blocks).toBe(blocks.length);
    const json = roundTrip(report);
    expect(json).toMatchObject({ blocks: report.blocks, stopped: false, firstTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/) });
    const { firstTime, lastTime, ...rest } = report;
    expect(json).toEqual({ ...rest, firstTime: isoOf(firstTime!), lastTime: isoOf(lastTime!) });
    expect(typeof firstTime).toBe('bigint'); // the report itself keeps ns
  }, 120_000);
});

describe('README quickstart', () => {
  // the TypeScript blocks of the section, as a user copies them (they are plain JavaScript too)
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quickstart');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it('runs as written over a dump and exits by itself', () => {
    expect(blocks.length).toBeGreaterThan(0);
    expect(section).toContain("'dumps/demo/'");
    const folder = consumerFolder();
    const code = blocks.join('\n').replaceAll("'dumps/demo/'", JSON.stringify(dump + '/'));
    const check = 'console.log(JSON.stringify({ report, points: response[0].result.length, trades: trades.length, newest: fees[0].slot }));';
    writeFileSync(join(folder, 'quickstart.mjs'), `${code}\n${check}\n`);
    // no timing asserted: the bound only turns a process that never exits into a failure
    const result = spawnSync(process.execPath, ['quickstart.mjs'], { cwd: folder, encoding: 'utf8', timeout: 180_000 });
    expect(result.signal, 'the quickstart did not exit by itself').toBeNull();
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(out).toMatchObject({ report: { rejected: 0 }, points: 1, trades: 10, newest: '388001000' });
    expect(out.report.blocks).toBeGreaterThan(0);
  }, 200_000);
});

describe('published files', () => {
  it('ship no bench, no tests and no source map without its sources; LICENSE, CHANGELOG and the built app ship', () => {
    const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const files = (JSON.parse(result.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'dist/src/index.node.js', 'dist/src/index.node.d.ts', 'dist/src/bundle/index.node.js', 'dist/src/bundle/cli.js', 'dist/workers/engine.worker.js']));
    expect(files.filter((f) => /(^|\/)(bench|test)(\/|$)/.test(f) || f.startsWith('src/') || f.startsWith('app/'))).toEqual([]);
    // the app with everything it runs: the page, the engine worker, DuckDB-WASM's and parquet-wasm's wasm
    expect(files).toContain('dist/app/index.html');
    for (const asset of [/^dist\/app\/assets\/engine\.worker-.*\.js$/, /^dist\/app\/assets\/duckdb-eh-.*\.wasm$/, /^dist\/app\/assets\/parquet_wasm_bg-.*\.wasm$/]) {
      expect(files.some((f) => asset.test(f)), String(asset)).toBe(true);
    }
    for (const map of files.filter((f) => f.endsWith('.map'))) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(sourcesContent?.filter((c) => typeof c === 'string').length, `${map} has its sources`).toBe(sources.length);
    }
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^Apache License\s+Version 2\.0, January 2004/);
  }, 60_000);

  it("resolve 'chainlens/engine-worker' through the exports map, and the worker serves", () => {
    const folder = consumerFolder();
    const script = `
      import { createRequire } from 'node:module';
      import { Worker } from 'node:worker_threads';
      import { connect } from 'chainlens';
      const url = import.meta.resolve('chainlens/engine-worker');
      const required = createRequire(import.meta.url).resolve('chainlens/engine-worker');
      const worker = new Worker(new URL(url), { workerData: { data: [${JSON.stringify(dump)}] } });
      const client = connect(worker);
      const tokens = await client.call('chain::market::token');
      client.close();
      await worker.terminate();
      console.log(JSON.stringify({ url, required, tokens: tokens.length }));`;
    writeFileSync(join(folder, 'worker.mjs'), script); // a file, not -e: a worker inherits the parent's execArgv
    const result = spawnSync(process.execPath, ['worker.mjs'], { cwd: folder, encoding: 'utf8', timeout: 120_000 });
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const entry = join(ROOT, 'dist', 'workers', 'engine.worker.js');
    expect(fileURLToPath(out.url)).toBe(entry);
    expect(out.required).toBe(entry);
    expect(out.tokens).toBeGreaterThan(0);
  }, 150_000);
});

/** ISO-8601 with 9 fraction digits of ns since the epoch (independent of the encoder). */
function isoOf(ns: bigint): string {
  const ms = ns / 1_000_000n;
  return `${new Date(Number(ms)).toISOString().slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}
