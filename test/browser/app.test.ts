/**
 * The browser app (app/, built by `npm run build` into dist/app) in Debian's Chromium, served by the
 * same static server as `chainlens ui`, driven as a user would: files through the file input (a
 * generated dump in four formats, then the real getBlock fixtures) and dropped on the page, the tabs, the time slider, the
 * replay player, the console and the exports. Every number a table shows is compared with the Node
 * engine's answer to the request the view says it sent (its `data-requests`), over the same files.
 * The page may reach nothing but the local server, and must log no error. Screenshots of each view
 * are written to test-results/app/ for a person to look at.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { chartVariances } from '../../bench/browser/page-load.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks } from '../../src/generate/market.js';
import { writeDump } from '../../src/generate/write-dump.js';
import { busiestAccounts } from '../../src/generate/accounts.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { serveStaticFiles, type StaticFilesServer } from '../../src/server/static-files.js';
import { chromiumMissing, openOfflinePage } from '../helpers/chromium.js';
import { REAL_DATA } from '../helpers/real-data.js';

const APP_DIR = fileURLToPath(new URL('../../dist/app/', import.meta.url));
const SHOTS = fileURLToPath(new URL('../../test-results/app/', import.meta.url));
const TIMEOUT = 180_000;
const FORMATS = { blocks: 'arrow', transactions: 'parquet', trades: 'ndjson', tokens: 'csv' } as const;
/** The generated market the page loads. */
const APP_MARKET = { minutes: 3, txPerBlock: 60, seed: 'app' } as const;
const EXTENSIONS = { parquet: 'parquet', ndjson: 'ndjson', csv: 'csv', arrow: 'arrow' } as const;

type Query = { method: string; params: Record<string, unknown> };
type WireRecord = Record<string, unknown>;
/** A table as shown: its rows, each cell's field and text. */
type ShownTable = { field: string; text: string }[][];

/** A wire value as the app shows it (dom.ts cellText). */
const cellText = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

describe.skipIf(chromiumMissing('browser app test') !== undefined)('browser app (dist/app in Debian Chromium)', () => {
  let dumpDir: string;
  let dumpFiles: string[];
  let blockFiles: string[];
  let server: StaticFilesServer;
  let page: Page;
  let offsite: string[];
  let errors: string[];
  /** The Node engine holding what the page loaded last. */
  let node: Engine;
  let close: () => Promise<void>;
  /** Each chart's canvas variances before any data. */
  const emptyCharts: Record<string, number[]> = {};

  beforeAll(async () => {
    if (!existsSync(join(APP_DIR, 'index.html'))) throw new Error(`${APP_DIR}index.html is missing: run npm run build`);
    mkdirSync(SHOTS, { recursive: true });
    dumpDir = await mkdtemp(join(tmpdir(), 'chainlens-app-'));
    await writeDump(APP_MARKET, (table) =>
      createTableFileWriter(join(dumpDir, `${table}.${EXTENSIONS[FORMATS[table]]}`), FORMATS[table], table));
    dumpFiles = readdirSync(dumpDir).map((f) => join(dumpDir, f));
    blockFiles = ['blocks', 'more-blocks'].flatMap((dir) =>
      readdirSync(join(REAL_DATA, dir)).filter((f) => f.endsWith('.json-encoding.json')).map((f) => join(REAL_DATA, dir, f)));
    blockFiles.push(join(REAL_DATA, 'tokens', 'solana.tokenlist.json'));
    node = await createEngine();
    await node.load(dumpFiles);
    server = await serveStaticFiles(APP_DIR);
    ({ page, offsite, errors, close } = await openOfflinePage(new URL(server.url).origin));
    await page.goto(server.url);
    for (const view of ['fees', 'market']) { // each shown once, empty, so that its chart has its size
      await showTab(view);
      await page.waitForTimeout(100);
      emptyCharts[view] = await page.evaluate(chartVariances, view);
    }
    // the page's long tasks (over 50 ms of its main thread), to tell whether it stayed responsive
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => w.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
  }, TIMEOUT);

  afterAll(async () => {
    await close?.();
    await server?.close();
    await node?.close();
    if (dumpDir) await rm(dumpDir, { recursive: true, force: true });
  });

  /** Opens files through the file input; waits for the load to end; the status line. */
  async function open(files: string[]): Promise<string> {
    const before = Number((await page.getAttribute('body', 'data-ready')) ?? 0);
    await page.setInputFiles('input[name=files]', files);
    await page.waitForFunction((n) => Number(document.body.dataset.ready ?? 0) > n, before, { timeout: 120_000 });
    return (await page.textContent('.load-status'))!;
  }

  async function showTab(id: string): Promise<void> {
    await page.click(`nav button[data-tab=${id}]`);
  }

  /**
   * Waits until the view has answered its queries (more than `after` times) and no refresh is under
   * way (a tab just shown or data just loaded: its answers are still coming), then settles; what it sent.
   */
  async function answered(view: string, after = 0, expect?: (requests: Record<string, Query>) => boolean): Promise<Record<string, Query>> {
    const selector = `section[data-view=${view}]`;
    const read = () => page.$eval(selector, (e) => {
      const { answered: n, requests, refreshing } = (e as HTMLElement).dataset;
      return { n: Number(n ?? 0), requests, refreshing: refreshing !== undefined };
    });
    for (let tries = 0; tries < 600; tries++) {
      const state = await read();
      if (state.n > after && state.requests && !state.refreshing) {
        const requests = JSON.parse(state.requests) as Record<string, Query>;
        // settled: no newer answer or refresh within 300 ms (the pair picked after the first answer is asked next)
        await page.waitForTimeout(300);
        const again = await read();
        if (again.n === state.n && !again.refreshing && (!expect || expect(requests))) return requests;
      }
      await page.waitForTimeout(100);
    }
    throw new Error(`${view} never answered`);
  }

  async function shownTable(view: string, answer: string): Promise<ShownTable> {
    return page.$$eval(`section[data-view=${view}] table[data-answer=${answer}] tbody tr`, (rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => ({ field: td.dataset.field!, text: td.textContent ?? '' }))));
  }

  /** The Node engine's answer to a query, as the view sent it. */
  async function nodeAnswer(query: Query): Promise<WireRecord[]> {
    const [entry] = await node.request({ jsonrpc: '2.0', id: 1, method: query.method, params: query.params });
    expect(entry, JSON.stringify(query)).toHaveProperty('result');
    return (entry as { result: WireRecord[] }).result;
  }

  /** Every shown cell equals the Node answer's field, row by row; at least `min` rows shown. */
  async function expectShown(view: string, answer: string, query: Query, min = 1): Promise<WireRecord[]> {
    const expected = await nodeAnswer(query);
    const shown = await shownTable(view, answer);
    expect(shown.length, `${view} ${answer} rows`).toBeGreaterThanOrEqual(Math.min(min, expected.length));
    expect(shown.length).toBe(Math.min(expected.length, shown.length));
    shown.forEach((row, i) => {
      expect(row.map((c) => c.text), `${view} ${answer} row ${i}`).toEqual(row.map((c) => cellText(expected[i]![c.field])));
    });
    return expected;
  }

  /**
   * The view's chart is drawn: a canvas that was blank before any data (a pane's plot area; the
   * axes have labels even empty) now has lines, candles or bars on it.
   */
  async function expectChartDrawn(view: string): Promise<void> {
    const now = await page.evaluate(chartVariances, view);
    const blank = emptyCharts[view]!;
    expect(blank.some((v) => v <= 1), `${view}: a blank pane before the load (${blank.join(', ')})`).toBe(true);
    const drawn = Math.max(0, ...now.filter((_, i) => blank[i]! <= 1));
    expect(drawn, `${view}: canvas variances ${now.map((v) => v.toFixed(0)).join(', ')}`).toBeGreaterThan(50);
  }

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  it('loads a generated dump (Arrow, Parquet, NDJSON, CSV) through the file input and shows the Node engine\'s market answers', async () => {
    const status = await open(dumpFiles);
    // the engine loads in its worker: the page's own thread never stalls for long
    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks));
    console.log(`longest main-thread task while loading: ${longest} ms`);
    expect(longest).toBeLessThan(1000);
    const report = await node.request({ jsonrpc: '2.0', id: 1, method: 'chain::priorityfee::block', params: { limit: 1000 } });
    const blocks = (report[0] as { result: unknown[] }).result.length;
    expect(status).toMatch(new RegExp(`^${blocks} blocks · [\\d,]+ rows in [\\d.]+ s$`)); // the outcome, not a progress line
    expect(await page.textContent('[data-report=counts]')).toMatch(/rejected 0/);
    const requests = await answered('market', 0, (r) => r.candles !== undefined);
    expect(requests.candles).toMatchObject({ method: 'chain::market::ohlcv', params: { window: '1m' } });
    const candles = await expectShown('market', 'candles', requests.candles!, 2);
    expect(candles.length).toBeGreaterThanOrEqual(3); // 3 minutes of 1m candles
    await expectShown('market', 'vwap', requests.vwap!, 5);
    await expectShown('market', 'twap', requests.twap!, 5);
    await expectShown('market', 'trades', requests.trades!, 20);
    await expectChartDrawn('market');
    await shot('market');
  }, TIMEOUT);

  it('switches the pair, the window and USD prices, still equal to the Node answers', async () => {
    const before = Number(await page.getAttribute('section[data-view=market]', 'data-answered'));
    const labels = await page.$$eval('#pairs option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(labels.length).toBe(3); // the demo market's three pairs
    await page.fill('input[name=pair]', labels[2]!.split(' · ')[0]!); // by symbol
    await page.dispatchEvent('input[name=pair]', 'change');
    await page.selectOption('select[name=window]', '10s');
    await page.check('input[name=usd]');
    const requests = await answered('market', before, (r) => r.candles?.params.window === '10s');
    const [, mints] = labels[2]!.split(' · ');
    const [base, quote] = mints!.split(' ');
    expect(requests.candles!.params).toMatchObject({ base, quote, window: '10s' });
    const fields = await page.$$eval('section[data-view=market] table[data-answer=candles] th', (ths) => ths.map((th) => th.getAttribute('title')));
    expect(fields).toContain('close_usd');
    await expectShown('market', 'candles', requests.candles!, 5);
    await expectShown('market', 'trades', requests.trades!, 1);
    await page.uncheck('input[name=usd]');
  }, TIMEOUT);

  it('shows the fee bands, the six recommendation tiers and the top transactions as the Node engine answers them', async () => {
    await showTab('fees');
    const requests = await answered('fees');
    const bands = await expectShown('fees', 'bands', requests.bands!, 50);
    expect(bands.length).toBeGreaterThan(100);
    await expectShown('fees', 'top', requests.top!, 10);
    const [point] = await nodeAnswer(requests.recommendation!);
    const tiers = await shownTable('fees', 'tiers');
    expect(tiers.map((row) => row[0]!.text)).toEqual(['min', 'low', 'medium', 'high', 'very_high', 'max']);
    for (const row of tiers) {
      for (const cell of row.slice(1)) expect(cell.text, `${row[0]!.text} ${cell.field}`).toBe(cellText(point![`${row[0]!.text}_${cell.field}`]));
    }
    await expectChartDrawn('fees');
    await page.selectOption('select[name=fee-source]', '1m');
    const windows = await answered('fees', 0, (r) => r.bands?.method === 'chain::priorityfee::fee');
    await expectShown('fees', 'bands', windows.bands!, 3);
    // the local fee market of the dump's busiest accounts (a word that is no key is left out)
    const hot = busiestAccounts(generateBlocks(APP_MARKET), 3);
    const before = Number(await page.getAttribute('section[data-view=fees]', 'data-answered'));
    await page.fill('input[name=accounts]', `${hot.join(', ')} not-a-key`);
    await page.press('input[name=accounts]', 'Enter');
    const local = await answered('fees', before, (r) => r.local !== undefined);
    expect(local.local!.params.accounts).toEqual(hot);
    const shown = await expectShown('fees', 'local', local.local!, 5);
    expect(shown.map((r) => r.scope)).toEqual(['combined', ...hot, 'global']);
    await shot('fees');
  }, TIMEOUT);

  it('the time slider answers every view as of its time', async () => {
    await showTab('market');
    const slider = 'input[name=at]';
    const max = Number(await page.getAttribute(slider, 'max'));
    expect(max).toBeGreaterThan(100_000); // ~3 minutes of ms
    const before = Number(await page.getAttribute('section[data-view=market]', 'data-answered'));
    await page.fill(slider, String(Math.round(max / 2)));
    const requests = await answered('market', before, (r) => r.candles?.params.at !== undefined);
    const at = requests.candles!.params.at as string;
    expect(await page.textContent('.timeline .at')).toBe(at);
    const candles = await expectShown('market', 'candles', requests.candles!, 1);
    const live = await nodeAnswer({ ...requests.candles!, params: { ...requests.candles!.params, at: undefined } });
    expect(candles.length).toBeLessThan(live.length); // half the candles of the live answer
    expect(String(candles[0]!.window_start) < at).toBe(true);
    await expectShown('market', 'trades', requests.trades!, 1);
    for (const trade of await nodeAnswer(requests.trades!)) expect(String(trade.timestamp) < at).toBe(true);
    await showTab('fees');
    const fees = await answered('fees', 0, (r) => r.bands?.params.at === at);
    await expectShown('fees', 'bands', fees.bands!, 1);
    await shot('time-travel');
    await page.click('button[data-action=live]');
    await answered('fees', 0, (r) => r.bands?.params.at === undefined);
  }, TIMEOUT);

  it('replays the dump: the views follow the streams, pause holds them, and they end on the loaded answers', async () => {
    await showTab('market');
    const clock = '.timeline .clock';
    const answeredNow = () => page.$eval('section[data-view=market]', (e) => Number((e as HTMLElement).dataset.answered ?? 0));
    await page.selectOption('select[name=speed]', '60'); // the 3 minutes in 3 s
    await page.click('button[data-action=play]');
    await page.waitForSelector(`${clock}[data-state=running]`);
    // nothing but the streams' pushes asks the views for new answers during a replay
    const first = await answeredNow();
    await page.waitForFunction((n) => Number(document.querySelector<HTMLElement>('section[data-view=market]')!.dataset.answered) >= n + 2, first, { timeout: 30_000 });
    await page.click('button[data-action=play]'); // pause
    await page.waitForSelector(`${clock}[data-state=paused]`); // not 'pausing': the commit under way is over
    const held = await page.textContent(clock);
    await page.waitForTimeout(600);
    const later = await page.textContent(clock);
    expect(later, `held ${held}, then ${later}`).toBe(held); // the clock and the block count stand still
    await page.selectOption('select[name=speed]', 'Infinity');
    await page.click('button[data-action=play]'); // resume, now as fast as it goes
    await page.waitForSelector(`${clock}[data-state=done]`, { timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector<HTMLInputElement>('input[name=at]')!.disabled);
    const requests = await answered('market', 0, (r) => r.candles !== undefined && r.candles.params.at === undefined);
    await expectShown('market', 'candles', requests.candles!, 2);
    await expectShown('market', 'trades', requests.trades!, 20);
    await shot('replay');
  }, TIMEOUT);

  it('the console round-trips a request with the exact envelope', async () => {
    await showTab('console');
    await page.selectOption('select[name=method]', 'chain::priorityfee::block');
    expect(await page.textContent('.hints')).toContain('integer 1-1000, default 1');
    const body = { jsonrpc: '2.0', id: 7, method: 'chain::priorityfee::block', params: { limit: 3 } };
    await page.fill('textarea[name=request]', JSON.stringify(body));
    await page.click('button[data-console=send]');
    await page.waitForSelector('pre[data-console=response][data-answered]');
    const [entry] = await node.request(body);
    expect(JSON.parse((await page.textContent('pre[data-console=response]'))!)).toEqual(entry);
    await page.fill('textarea[name=request]', '{"jsonrpc":"2.0","id":8,"method":"chain::market::nope"}');
    await page.click('button[data-console=send]');
    await page.waitForFunction(() => document.querySelector('pre[data-console=response]')!.textContent!.includes('-32601'));
    await shot('console');
  }, TIMEOUT);

  it('exports a view as CSV and JSON and its chart as PNG', async () => {
    await showTab('market');
    const requests = await answered('market', 0, (r) => r.candles !== undefined);
    const save = async (kind: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`section[data-view=market] button[data-export=${kind}]`)]);
      return readFileSync((await download.path())!);
    };
    const candles = await nodeAnswer(requests.candles!);
    const csv = (await save('csv')).toString('utf8').trim().split('\r\n');
    expect(csv[0]).toBe(Object.keys(candles[0]!).join(','));
    expect(csv).toHaveLength(candles.length + 1);
    expect(csv[1]).toBe(Object.values(candles[0]!).map(cellText).join(','));
    const json = JSON.parse((await save('json')).toString('utf8')) as Record<string, { request: Query; result: WireRecord[] }>;
    expect(json.candles!.result).toEqual(candles);
    expect((await save('png')).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  }, TIMEOUT);

  it('loads the real getBlock fixtures with a token list and shows their fees and pairs as the Node engine has them', async () => {
    const real = await createEngine();
    try {
      const loaded = await real.load(blockFiles);
      await node.close();
      node = real;
      const status = await open(blockFiles);
      expect(status).toMatch(new RegExp(`^${loaded.blocks} blocks · [\\d,]+ rows in [\\d.]+ s · ${loaded.warnings.length} warnings?$`));
      expect(await page.textContent('.timeline .clock')).toBe(''); // the replay before is forgotten
      await showTab('fees');
      await page.selectOption('select[name=fee-source]', 'block');
      const requests = await answered('fees', 0, (r) => r.bands?.method === 'chain::priorityfee::block');
      const bands = await expectShown('fees', 'bands', requests.bands!, loaded.blocks);
      expect(bands).toHaveLength(loaded.blocks);
      await expectShown('fees', 'top', requests.top!, 1);
      await showTab('market');
      const market = await answered('market', 0, (r) => r.candles !== undefined);
      const pairs = new Set((await nodeAnswer(market.pairs!)).map((c) => `${c.base} ${c.quote}`));
      const symbols = new Map((await nodeAnswer(market.tokens!)).map((t) => [t.mint, t.symbol]));
      const labels = await page.$$eval('#pairs option', (options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(labels).toHaveLength(pairs.size);
      for (const label of labels) {
        const [shown, mints] = label.split(' · ');
        expect(pairs.has(mints!)).toBe(true);
        const [base, quote] = mints!.split(' ');
        if (symbols.get(base) && symbols.get(quote)) expect(shown).toBe(`${symbols.get(base)}/${symbols.get(quote)}`); // named by the token list
      }
      expect(labels.some((l) => /^[^·]*USDC/.test(l) || /^[^·]*SOL/.test(l))).toBe(true);
      await expectShown('market', 'trades', market.trades!, 1);
      await showTab('report');
      expect(await page.textContent('[data-report=counts]')).toContain(`blocks ${loaded.blocks}`);
      await shot('real-blocks');
    } catch (error) {
      if (node !== real) await real.close();
      throw error;
    }
  }, TIMEOUT);

  it('loads files dropped on the page', async () => {
    const before = Number((await page.getAttribute('body', 'data-ready')) ?? 0);
    const files = dumpFiles.map((f) => ({ name: f.split('/').pop()!, base64: readFileSync(f).toString('base64') }));
    await page.evaluate((list) => {
      const transfer = new DataTransfer();
      for (const { name, base64 } of list) transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
      for (const type of ['dragenter', 'dragover', 'drop']) document.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, files);
    await page.waitForFunction((n) => Number(document.body.dataset.ready ?? 0) > n, before, { timeout: 120_000 });
    const generated = await createEngine();
    try {
      const loaded = await generated.load(dumpFiles);
      expect(await page.textContent('.load-status')).toMatch(new RegExp(`^${loaded.blocks} blocks · `));
      expect(await page.isHidden('#drop')).toBe(true);
      await node.close();
      node = generated;
    } catch (error) {
      await generated.close();
      throw error;
    }
    await showTab('fees');
    const requests = await answered('fees', 0, (r) => r.bands !== undefined);
    await expectShown('fees', 'bands', requests.bands!, 50);
  }, TIMEOUT);

  it('opens a folder through the folder picker: its stray file is skipped and listed as a warning', async () => {
    const folder = join(dumpDir, 'picked');
    mkdirSync(folder);
    for (const file of dumpFiles) copyFileSync(file, join(folder, file.split('/').pop()!));
    writeFileSync(join(folder, 'notes.txt'), 'not a table\n');
    const before = Number((await page.getAttribute('body', 'data-ready')) ?? 0);
    await page.setInputFiles('input[name=folder]', folder);
    await page.waitForFunction((n) => Number(document.body.dataset.ready ?? 0) > n, before, { timeout: 120_000 });
    const fresh = await createEngine();
    try {
      const loaded = await fresh.load(folder);
      expect(loaded.warnings).toEqual([expect.stringContaining('notes.txt')]);
      expect(await page.textContent('.load-status')).toMatch(new RegExp(`^${loaded.blocks} blocks · .* · 1 warning$`));
    } finally {
      await fresh.close();
    }
    await showTab('report');
    expect(await page.textContent('[data-report=warnings]')).toContain('notes.txt');
    await shot('load-report');
  }, TIMEOUT);

  it('stayed offline and logged no error', () => {
    expect(offsite).toEqual([]);
    expect(errors).toEqual([]);
  });
});
