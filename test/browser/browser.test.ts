/**
 * Browser smoke test: the built browser entry (dist/src/index.browser.js) bundled by Vite into a
 * page (test/browser/page/), served from 127.0.0.1 and driven in Debian's headless Chromium through
 * playwright-core. In the page: DuckDB-WASM's async worker bundle, NDJSON and Parquet (parquet-wasm's
 * esm build) loaded from `{ name, bytes }` and from File and Blob objects made in the page,
 * `chain::market::trades` and `chain::market::token`, and the kernel module worker. The page may fetch
 * nothing but the local server.
 *
 * Needs Chromium (/usr/bin/chromium, Debian package `chromium`, installed by .ci/run; else `chromium`
 * or `chromium-browser` on PATH) and `npm run build`. Without Chromium the test fails when CI is set,
 * and elsewhere skips with a warning.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableWriter, memorySink, readTableFile } from '../../src/ingest/files/index.js';
import { createEngine } from '../../src/index.node.js';
import { sampleStatsReference } from '../../src/kernels/fees-reference.js';
import { chromiumMissing, openOfflinePage } from '../helpers/chromium.js';
import { serveStaticFiles, type StaticFilesServer } from '../../src/server/static-files.js';
import type { PageFile } from './page/main.js';

const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));
const BROWSER_ENTRY = fileURLToPath(new URL('../../dist/src/index.browser.js', import.meta.url));
const TIMEOUT = 120_000;

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SIGNER = 'BUbpYVnAqCUD6dZGSMxW48PzcY9UmHHcdo2hV465kbb2';

// Hand-written dump: u64 above 2^53 as raw JSON integers, nanosecond timestamps.
const BLOCKS_NDJSON = [
  '{"slot": 254170887, "timestamp": 1710441678123456789}',
  '{"slot": 254170888, "timestamp": 1710441678523456789}',
].join('\n') + '\n';
const TRADES_NDJSON = [
  `{"signature":"sig-big","signer":"${SIGNER}","slot":254170887,"tx_index":3,"fill_index":0,"timestamp":1710441678123456789,` +
    `"base":"${SOL}","quote":"${USDC}","base_amount":18446744073709551615,"quote_amount":9007199254740993,` +
    `"base_decimals":9,"quote_decimals":6,"is_buy":true}`,
  `{"signature":"sig-tiny","signer":"${SIGNER}","slot":254170888,"tx_index":0,"fill_index":1,"timestamp":1710441678523456789,` +
    `"base":"${SOL}","quote":"${USDC}","base_amount":1,"quote_amount":1,"base_decimals":9,"quote_decimals":6,"is_buy":false}`,
].join('\n') + '\n';
const TOKENS_NDJSON = [
  `{"mint":"${SOL}","name":"Wrapped SOL","symbol":"SOL","decimals":9,"supply":9007199254740993}`,
  `{"mint":"${USDC}","name":"USD Coin","symbol":"USDC","decimals":6}`,
].join('\n') + '\n';

const DUMP: PageFile[] = [
  { name: 'blocks.ndjson', text: BLOCKS_NDJSON },
  { name: 'trades.ndjson', text: TRADES_NDJSON },
  { name: 'tokens.ndjson', text: TOKENS_NDJSON },
];

/** The trades file as Parquet, written in Node from the same NDJSON rows. */
async function tradesParquet(): Promise<number[]> {
  const sink = memorySink();
  const writer = createTableWriter('parquet', 'trades', sink);
  const input = { name: 'trades.ndjson', bytes: new TextEncoder().encode(TRADES_NDJSON) };
  for await (const batch of readTableFile(input)) await writer.write(batch.rows);
  await writer.close();
  return Array.from(sink.bytes());
}

/** A page's file as the Node engine loads it: its name and bytes (a text file's as UTF-8). */
const nodeInput = (f: PageFile) => ({ name: f.name, bytes: f.bytes ? Uint8Array.from(f.bytes) : new TextEncoder().encode(f.text ?? '') });

/** What the page computes, computed by the Node engine on the same files. */
async function nodeAnswer(files: PageFile[]): Promise<unknown> {
  const engine = await createEngine();
  try {
    const report = await engine.load(files.map(nodeInput));
    const { read, ingested, rejected, blocks } = report;
    return {
      report: { read, ingested, rejected, blocks },
      trades: await engine.call('chain::market::trades', { limit: 10 }),
      token: await engine.call('chain::market::token', {}),
      response: (await engine.request({ jsonrpc: '2.0', id: 1, method: 'chain::market::trades', params: { limit: 1 } }))[0],
    };
  } finally {
    await engine.close();
  }
}

/** Transactions of the two blocks as Parquet, locking SOL, USDC and the signer in turn. */
async function transactionsParquet(): Promise<number[]> {
  const sink = memorySink();
  const writer = createTableWriter('parquet', 'transactions', sink);
  await writer.write([254170887n, 254170888n].flatMap((slot, b) => Array.from({ length: 6 }, (_, index) => ({
    slot, index, signature: `sig-${slot}-${index}`, signer: SIGNER, program: SOL, is_vote: false, failed: false,
    compute_unit_price: BigInt(1000 * (index + 1) + b), compute_unit_limit: 200_000, compute_units_consumed: 1000n, priority_fee: null,
    writable_accounts: index % 3 === 0 ? [SOL, SIGNER] : index % 3 === 1 ? [USDC] : null,
  }))));
  await writer.close();
  return Array.from(sink.bytes());
}

/** What the Node engine answers for the local fee markets over the same bytes (read at load: bytes stay in memory). */
async function nodeLocalFees(files: PageFile[], accounts: string[]): Promise<unknown> {
  const engine = await createEngine();
  try {
    const { read, ingested, rejected, blocks } = await engine.load(files.map(nodeInput));
    return {
      report: { read, ingested, rejected, blocks },
      estimate: await engine.call('chain::priorityfee::estimate', { accounts }),
      recent: await engine.call('chain::priorityfee::recent', { accounts }),
    };
  } finally {
    await engine.close();
  }
}

describe.skipIf(chromiumMissing('browser smoke test') !== undefined)('browser (Vite bundle in Debian Chromium)', () => {
  let outDir: string;
  let server: StaticFilesServer;
  let origin: string;
  let close: () => Promise<void>;
  let page: Page;
  let offsite: string[] = [];
  let pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(BROWSER_ENTRY)) throw new Error(`${BROWSER_ENTRY} is missing: run npm run build`);
    outDir = await mkdtemp(join(tmpdir(), 'chainlens-browser-'));
    await build({
      configFile: false,
      root: PAGE_DIR,
      base: './',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
      worker: { format: 'es' },
    });
    server = await serveStaticFiles(outDir);
    origin = new URL(server.url).origin;
    ({ page, offsite, errors: pageErrors, close } = await openOfflinePage(origin));
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => window.__result === 'ready', undefined, { timeout: 30_000 });
  }, TIMEOUT);

  afterAll(async () => {
    await close?.();
    await server?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('loads NDJSON bytes and answers trades and token with exact strings', async () => {
    const json = await page.evaluate((files) => window.__chainlens.query(files), DUMP);
    expect(await page.evaluate(() => window.__result)).toBe(json);
    const answer = JSON.parse(json) as { report: unknown; trades: Record<string, unknown>[]; token: Record<string, unknown>[] };
    expect(answer.report).toEqual({ read: 6, ingested: 6, rejected: 0, blocks: 2 });
    const [tiny, big] = answer.trades;
    expect(answer.trades).toHaveLength(2);
    expect(big).toMatchObject({
      signature: 'sig-big',
      signer: SIGNER,
      slot: '254170887',
      timestamp: '2024-03-14T18:41:18.123456789Z',
      base: SOL,
      quote: USDC,
      base_amount: '18446744073709551615',
      quote_amount: '9007199254740993',
      base_decimals: '9',
      quote_decimals: '6',
      base_volume: '18446744073.709553', // nearest float to 18446744073.709551615
      quote_volume: '9007199254.740993',
      price: '0.48828125000000006', // (2^53+1)/10^6 over (2^64-1)/10^9 = 0.4882812500000000542..., nearest float
      is_buy: true,
    });
    expect(tiny).toMatchObject({
      signature: 'sig-tiny', slot: '254170888', timestamp: '2024-03-14T18:41:18.523456789Z',
      base_volume: '0.000000001', quote_volume: '0.000001', price: '1000', is_buy: false,
    });
    expect(answer.token).toMatchObject([ // sorted by mint
      { mint: USDC, name: 'USD Coin', symbol: 'USDC', decimals: '6', supply: null },
      { mint: SOL, name: 'Wrapped SOL', symbol: 'SOL', decimals: '9', supply: '9007199254740993' },
    ]);
    // Every byte of the answer, ids and the JSON-RPC envelope included, is the Node engine's.
    expect(answer).toEqual(await nodeAnswer(DUMP));
    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  }, TIMEOUT);

  it('loads the same trades from Parquet (parquet-wasm esm, its wasm from the bundle)', async () => {
    const parquet = await tradesParquet();
    const files: PageFile[] = [DUMP[0]!, { name: 'trades.parquet', bytes: parquet }, DUMP[2]!];
    const fromParquet = JSON.parse(await page.evaluate((f) => window.__chainlens.query(f), files));
    const fromNdjson = JSON.parse(await page.evaluate((f) => window.__chainlens.query(f), DUMP));
    expect(fromParquet).toEqual(fromNdjson);
    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  }, TIMEOUT);

  it('loads File and Blob objects made in the page (NDJSON and Parquet) as the Node engine loads the same bytes', async () => {
    const files: PageFile[] = [DUMP[0]!, { name: 'trades.parquet', bytes: await tradesParquet() }, DUMP[2]!];
    const expected = await nodeAnswer(files);
    for (const kind of ['file', 'blob'] as const) {
      const answer = JSON.parse(await page.evaluate(([f, k]) => window.__chainlens.queryObjects(f, k), [files, kind] as const));
      expect(answer, kind).toEqual(expected);
      expect(answer.report, kind).toEqual({ read: 6, ingested: 6, rejected: 0, blocks: 2 });
    }
    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  }, TIMEOUT);

  it('reads the write-locked accounts of a Parquet File back through the kernel worker, as Node reads them at load', async () => {
    const files: PageFile[] = [DUMP[0]!, { name: 'transactions.parquet', bytes: await transactionsParquet() }];
    for (const accounts of [[SOL], [USDC, SIGNER]]) {
      const answer = JSON.parse(await page.evaluate(([f, a]) => window.__chainlens.localFees(f, a), [files, accounts] as const));
      expect(answer.report).toEqual({ read: 14, ingested: 14, rejected: 0, blocks: 2 });
      expect(answer.estimate.length).toBe(accounts.length + 2);
      expect(answer, accounts.join()).toEqual(await nodeLocalFees(files, accounts));
    }
    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  }, TIMEOUT);

  it('computes sample statistics in the kernel module worker, as the reference does', async () => {
    const prices = ['50', '10', '40', '18446744073709551615', '20', '30'];
    const json = await page.evaluate((p) => window.__chainlens.sampleStats(p), prices);
    const price = BigUint64Array.from(prices, BigInt);
    const expected = sampleStatsReference({
      price, fee: price.slice(), limit: new BigUint64Array(6).fill(200_000n), position: Float64Array.from(price, (_, i) => i / 5),
    });
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(expected, (_, v) => (typeof v === 'bigint' ? String(v) : v))));
    // nearest rank of 6 sorted prices (10 20 30 40 50 2^64-1): the median is the 3rd
    expect(JSON.parse(json).price_median).toBe('30');
    expect(pageErrors).toEqual([]);
    expect(offsite).toEqual([]);
  }, TIMEOUT);
});
