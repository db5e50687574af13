/**
 * The browser family: a mainnet-profile dump opened in the browser app (dist/app, served by the
 * same static server as `chainlens ui`) in Debian's Chromium, as a user opens it: the Parquet files
 * given to the file input, a fresh browser per dump. Measured: the time to the first chart (the
 * market view's candles drawn while the load goes on), the time to the full load and its blocks
 * per second, the browser's memory (its whole process tree, sampled from /proc), the main thread's
 * long tasks, and every page and worker error. Beside it, the same files loaded by the Node engine
 * in a fresh process (createEngine + load), the baseline. Dumps: the e2e family's (`--e2e-minutes`,
 * 10 minutes and one hour by default), cached in .chainlens/bench/; quick mode: the 2-minute one.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from '../child.js';
import { ensureDump, MAINNET, type Dump } from '../e2e/dumps.js';
import { statsOfSamples, type Figure, type Skipped, type SubjectResult, type Target } from '../harness.js';
import type { BenchOptions } from '../options.js';
import { serveStaticFiles } from '../../src/server/static-files.js';
import { findChromium, openPage } from './chromium.js';
import type { NodeLoad } from './node-load.js';
import { loadInPage, type PageLoad } from './page-load.js';

/** The built app (dist/app), whether this module runs compiled (dist/bench/browser) or from source. */
export const APP_DIR = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../dist/app/' : '../../app/', import.meta.url));

/** The family's targets: the issue asks that the one-hour dump load in the page; the first chart is ours (see the note). */
export const BROWSER_TARGETS = { firstChartMs: 5_000 } as const;

const mib = (v: number) => Math.round(v * 10) / 10;
const count = (n: number) => n.toLocaleString('en-US');
const minutesLabel = (minutes: number): string => (minutes === 60 ? 'one-hour' : `${minutes}-minute`);

/** The blocks a status line shows ("… · 1,234 blocks · …", or "1,234 blocks · … rows in …"). */
const blocksIn = (status: string | undefined): number | null => {
  const hit = /([\d,]+) blocks\b/.exec(status ?? '');
  return hit ? Number(hit[1]!.replace(/,/g, '')) : null;
};

/** Why the family cannot run here, or undefined. */
function refusal(): string | undefined {
  if (!existsSync(path.join(APP_DIR, 'index.html'))) return `browser: ${path.join(APP_DIR, 'index.html')} is missing: run npm run build (or npm run build:app)`;
  if (!findChromium()) {
    return "browser: no Chromium at /usr/bin/chromium nor on PATH (chromium, chromium-browser): install Debian's chromium (apt-get install -y chromium); " +
      'the benchmark never downloads a browser';
  }
  return undefined;
}

/** The dump's Parquet files, as a user picks them (the cache's `.complete` marker is not one). */
const dumpFiles = (dump: Dump) => readdirSync(dump.folder).filter((f) => f.endsWith('.parquet')).sort().map((f) => path.join(dump.folder, f));

/** One load of `dump` in a fresh browser. */
async function pageLoad(dump: Dump, url: string, timeoutMs: number, log: (line: string) => void): Promise<PageLoad> {
  const page = await openPage(findChromium()!, new URL(url).origin);
  try {
    const load = await loadInPage(page, url, dumpFiles(dump), timeoutMs);
    log(`  browser ${path.basename(dump.folder)}: first chart ${load.first_chart_ms === null ? 'none' : `${(load.first_chart_ms / 1000).toFixed(2)} s`}, ` +
      `full load ${load.full_load_ms === null ? 'none' : `${(load.full_load_ms / 1000).toFixed(1)} s`}, peak tree RSS ${load.memory.peak_tree_mib.toFixed(0)} MiB` +
      `${load.error ? `; FAILED: ${load.error}` : ''}`);
    return load;
  } finally {
    await page.close();
  }
}

/** The figure of one dump: the page's load, the Node engine's beside it. */
async function dumpFigure(dump: Dump, label: string, url: string, timeoutMs: number, log: (line: string) => void): Promise<Figure> {
  const { blocks, transactions, trades, tokens } = dump.counts;
  const files = dumpFiles(dump);
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  const page = await pageLoad(dump, url, timeoutMs, log);
  let node: NodeLoad | undefined;
  let nodeFailure: string | undefined;
  try {
    node = await runChild<NodeLoad>(new URL('./node-load.js', import.meta.url).href, [dump.folder]);
  } catch (error) {
    nodeFailure = `did not finish: ${(error as Error).message.replace(/^child .*? exited with /, 'exit status ')}`;
  }

  const loadedAll = page.error === undefined && page.ended && page.rejected === 0 && page.blocks === blocks;
  const pageLabel = 'browser app (dist/app in Chromium): files to the full load';
  const subjects: SubjectResult[] = [];
  const skipped: Skipped[] = [];
  if (page.full_load_ms !== null && page.error === undefined) {
    subjects.push({
      id: 'chainlens', label: pageLabel, stats: statsOfSamples([page.full_load_ms]), per_second: (page.blocks ?? 0) / (page.full_load_ms / 1000),
      note: 'one run, from the file input\'s change event to body[data-ready]',
    });
  } else skipped.push({ id: 'chainlens', label: pageLabel, reason: page.error ?? 'the load never ended' });
  const firstChartBlocks = blocksIn(page.first_chart?.status);
  if (page.first_chart_ms !== null) {
    subjects.push({
      id: 'first-chart', label: 'browser app: files to the first chart (candles drawn)', stats: statsOfSamples([page.first_chart_ms]),
      per_second: (firstChartBlocks ?? 0) / (page.first_chart_ms / 1000), count: firstChartBlocks ?? 0,
      note: `one run; ${firstChartBlocks === null ? 'the load had ended' : `${count(firstChartBlocks)} blocks committed`} when drawn`,
    });
  } else skipped.push({ id: 'first-chart', label: 'browser app: files to the first chart', reason: page.error ?? 'no chart was drawn' });
  const nodeLabel = 'Node engine, fresh process: createEngine + load(folder)';
  if (node) {
    subjects.push({ id: 'node', label: nodeLabel, stats: statsOfSamples([node.load_ms]), per_second: node.blocks / (node.load_ms / 1000), note: 'one run, the module import apart' });
  } else skipped.push({ id: 'node', label: nodeLabel, reason: nodeFailure! });

  const committed = page.blocks ?? blocksIn(page.status) ?? blocksIn(page.last_status) ?? 0;
  const targets: Target[] = [
    {
      text: `the ${label} dump loads in the page (every block, no row rejected, no error)`, kind: 'min-fraction', required: 1,
      measured: committed / blocks, met: loadedAll,
    },
    {
      text: `first chart < ${BROWSER_TARGETS.firstChartMs / 1000} s`, kind: 'max-latency', required: BROWSER_TARGETS.firstChartMs,
      measured: page.first_chart_ms, met: page.first_chart_ms !== null && page.first_chart_ms < BROWSER_TARGETS.firstChartMs,
    },
  ];

  const m = page.memory;
  const values: Record<string, number | string | null> = {
    first_chart_s: page.first_chart_ms === null ? null : page.first_chart_ms / 1000,
    first_chart_blocks_committed: firstChartBlocks,
    first_progress_s: page.first_progress_ms === null ? null : page.first_progress_ms / 1000,
    first_view_answer_s: page.first_answer_ms === null ? null : page.first_answer_ms / 1000,
    first_view_answer_blocks_committed: blocksIn(page.first_answer_status),
    full_load_s: page.full_load_ms === null ? null : page.full_load_ms / 1000,
    page_blocks: page.blocks,
    page_rows_ingested: page.ingested,
    page_rows_rejected: page.rejected,
    page_blocks_per_s: page.full_load_ms && page.blocks ? page.blocks / (page.full_load_ms / 1000) : null,
    page_transactions_per_s: page.full_load_ms && loadedAll ? transactions / (page.full_load_ms / 1000) : null,
    worker_load_s: page.worker_seconds,
    handover_ms: page.handover_ms === null ? null : Math.round(page.handover_ms),
    browser_idle_tree_rss_mib: mib(m.idle_tree_mib),
    browser_peak_tree_rss_mib: mib(m.peak_tree_mib),
    browser_idle_tree_pss_mib: mib(m.idle_tree_pss_mib),
    browser_peak_tree_pss_mib: mib(m.peak_tree_pss_mib),
    browser_peak_renderer_rss_mib: mib(m.peak_renderer_mib),
    browser_end_tree_rss_mib: mib(m.last_tree_mib),
    browser_end_renderer_rss_mib: mib(m.last_renderer_mib),
    browser_processes: m.processes,
    main_thread_long_tasks: page.long_tasks.count,
    main_thread_longest_task_ms: Math.round(page.long_tasks.max_ms),
    main_thread_long_tasks_total_s: page.long_tasks.total_ms / 1000,
    page_errors: page.errors.length,
    node_load_s: node ? node.load_ms / 1000 : null,
    node_blocks_per_s: node ? node.blocks / (node.load_ms / 1000) : null,
    node_peak_rss_mib: node ? mib(node.peak_rss_mib) : null,
    node_wall_s: node ? node.wall_ms / 1000 : null,
    load_ratio_page_to_node: node && page.full_load_ms !== null && page.error === undefined ? page.full_load_ms / node.load_ms : null,
    memory_ratio_page_to_node: node ? m.peak_tree_pss_mib / node.peak_rss_mib : null,
    status_line: page.status || null,
  };
  if (page.errors.length) values.page_error_texts = page.errors.join(' | ').slice(0, 2000);
  if (page.offsite.length) values.offsite_requests = page.offsite.join(' ');
  if (page.error !== undefined) {
    values.chainlens_failed = page.error;
    values.last_status_line = page.last_status || null;
  }
  if (nodeFailure !== undefined) values.node_failed = nodeFailure;

  return {
    id: `browser.load-${label}`,
    family: 'browser',
    title: `In the browser app, ${label} dump: files to the first chart and to the full load`,
    size: `${count(blocks)} blocks, ${count(transactions)} transactions, ${count(trades)} trades, ${count(tokens)} tokens ` +
      `(mainnet profile, ${files.length} Parquet files, ${(bytes / 2 ** 20).toFixed(0)} MiB; ${path.basename(dump.folder)})`,
    work: { unit: 'blocks', count: blocks },
    subjects,
    skipped,
    targets,
    values,
    notes: NOTES,
  };
}

const NOTES = [
  'The page: the built app (dist/app) served on loopback by the static server of `chainlens ui`, in Debian\'s Chromium (headless, through playwright-core, a fresh browser per dump, 1280x900, no request beyond the server). The dump\'s Parquet files are given to the app\'s file input as a user picks them; the clock starts at the input\'s change event (handover_ms: from the call in Node to that event).',
  'First chart: the market view\'s candles table has a row and a chart pane that was blank before the load has something drawn on it (canvas pixel variance), checked in the page on each animation frame once the view has changed. The app answers while it loads (its views refresh from what is committed, every 250 ms), so the first chart comes from the first committed chunks: first_chart_blocks_committed says how many. Full load: body[data-ready] incremented, the app\'s "the load has ended"; its blocks/s is the page\'s blocks over that time, which includes starting the engine (DuckDB-WASM\'s worker and the kernels\' worker) as the worker does on each open.',
  'The first-chart target, 5 s, is ours (the issue sets none for the browser). The first chart needs what the load commits first, not the whole dump: what it takes is a new engine (its DuckDB-WASM and kernel workers started), the first row groups decoded, two answers of the market view and a frame, under a second or two on this 2-core machine; 5 s leaves room for a loaded machine and is about where a user who has picked a file starts to wonder whether anything happens.',
  'Memory: the browser\'s whole process tree (browser, zygotes, GPU, network and storage services, the renderer), sampled every 200 ms from /proc: the sum of RSS counts a page shared by several processes (libraries, the zygote\'s) in each of them, the sum of PSS splits it between them, so PSS is the tree\'s own memory; the renderer\'s peak is the kernel\'s VmHWM. The renderer holds the page and its dedicated workers (the app\'s engine worker, DuckDB-WASM\'s and the kernels\'). idle: before the files were given. Long tasks: the page\'s main thread (what a user feels as a freeze), from the Long Tasks API; the workers\' are not counted.',
  'Baseline: the same files loaded by the Node engine in a fresh process, createEngine then engine.load(folder), timed from before createEngine (the module import apart: the page\'s worker has its module loaded before the files are opened), with the process\'s peak RSS (Node, its worker threads and their WebAssembly heaps). memory_ratio_page_to_node: the browser tree\'s peak PSS over it.',
];

/** The browser family: one figure per dump. */
export async function browserFigures(options: BenchOptions, log: (line: string) => void = (line) => console.log(line)): Promise<Figure[]> {
  const refused = refusal();
  if (refused) throw new Error(refused);
  const minutes = options.quick ? [2] : options.e2eMinutes;
  const server = await serveStaticFiles(APP_DIR);
  try {
    const figures: Figure[] = [];
    for (const m of minutes) {
      const dump = await ensureDump(MAINNET(m));
      // generous: a load that has not ended by then is recorded as such (the Node engine loads ~240 blocks/s)
      const timeoutMs = Math.max(180_000, (dump.counts.blocks / 10) * 1000);
      figures.push(await dumpFigure(dump, minutesLabel(m), server.url, timeoutMs, log));
    }
    return figures;
  } finally {
    await server.close();
  }
}
