/**
 * One load of a dump in the browser app, as a user does it: the files handed to the file input,
 * then the page watched from inside. The clock starts at the input's `change` event (the moment the
 * page has the files; a capturing listener on the document runs before the app's own) and stops:
 * - at the first chart: the market view's candles table has a row and a pane of its chart that was
 *   blank has something drawn on it (pixel variance), checked on each animation frame after the
 *   view changed (a MutationObserver wakes the check, so it costs nothing before);
 * - at the full load: `body[data-ready]` incremented (the app's "a load has ended").
 * Beside them: when the first committed chunk showed in the status line, the main thread's long
 * tasks (what a user would feel as a freeze), and the load report the app shows.
 */
import type { Page } from 'playwright-core';
import type { BenchPage } from './chromium.js';

/** What the page-side watcher records (performance.now() of the page). */
interface Watch {
  start: number | null;
  startEpoch: number | null;
  firstProgress: number | null;
  /** The market view's first answer (its token list and pairs, before it asks a pair's candles), and the status line then. */
  firstAnswer: number | null;
  firstAnswerStatus: string;
  /** The status line as last seen (what a crash leaves). */
  lastStatus: string;
  firstChart: number | null;
  firstChartRows: number;
  firstChartVariance: number;
  firstChartStatus: string;
  readyAt: number | null;
  status: string;
  longTasks: number[];
}

/** The outcome of one load in the page. */
export interface PageLoad {
  /** The load ended (`data-ready`), successfully or not. */
  ended: boolean;
  /** Why the load did not load every row: the app's error, a crash, a timeout (absent when it did). */
  error?: string;
  first_chart_ms: number | null;
  /** When the status line first showed a committed block. */
  first_progress_ms: number | null;
  /** When the market view first answered (the tokens and pairs it picks a pair from), and the status line then. */
  first_answer_ms: number | null;
  first_answer_status: string;
  /** The status line as last seen during the load. */
  last_status: string;
  full_load_ms: number | null;
  /** From Date.now() in Node before setInputFiles to the page's change event (clock sanity: should be small). */
  handover_ms: number | null;
  /** Counts of the app's load report. */
  read: number | null;
  ingested: number | null;
  rejected: number | null;
  blocks: number | null;
  /** The engine worker's own load seconds (the status line's "in X s"). */
  worker_seconds: number | null;
  status: string;
  first_chart: { rows: number; variance: number; status: string } | null;
  /** The canvases' variances before the load (the blank ones are watched). */
  empty_chart_variances: number[];
  long_tasks: { count: number; max_ms: number; total_ms: number };
  /** Page and worker errors, deduplicated with their counts. */
  errors: string[];
  offsite: string[];
  /** The browser's process tree: RSS and PSS sums (peak as sampled every 200 ms, and at the end), the renderer's own peak. */
  memory: {
    idle_tree_mib: number; idle_tree_pss_mib: number; peak_tree_mib: number; peak_tree_pss_mib: number; peak_renderer_mib: number;
    last_tree_mib: number; last_tree_pss_mib: number; last_renderer_mib: number; processes: number;
  };
}

/**
 * Pixel variance of each canvas (panes, axes) of a view's chart, in document order (runs in the
 * page: self-contained). A pane's plot area is one colour, variance 0, until something is drawn.
 */
export function chartVariances(view = 'market'): number[] {
  const box = document.querySelector(`section[data-view=${view}] .chart`);
  return [...box?.querySelectorAll('canvas') ?? []].map((canvas) => {
    if (canvas.width === 0 || canvas.height === 0) return 0;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0;
    let squares = 0;
    const n = data.length / 4;
    for (let i = 0; i < data.length; i += 4) {
      const luma = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
      sum += luma;
      squares += luma * luma;
    }
    return squares / n - (sum / n) ** 2;
  });
}

/**
 * Installs the watcher in the page (before the files are given). `empty`: each canvas's variance
 * before the load; the chart is drawn when a canvas that was blank then (a pane's plot area: one
 * colour, variance 0; the time axis has its labels even empty) has anything on it.
 */
function installWatch(empty: number[]): void {
  const variances = (window as unknown as { __chartVariances: () => number[] }).__chartVariances;
  const drawn = () => Math.max(0, ...variances().filter((_, i) => (empty[i] ?? 0) <= 1));
  const w: Watch = {
    start: null, startEpoch: null, firstProgress: null, firstAnswer: null, firstAnswerStatus: '', lastStatus: '', firstChart: null, firstChartRows: 0, firstChartVariance: 0,
    firstChartStatus: '', readyAt: null, status: '', longTasks: [],
  };
  (window as unknown as { __bench: Watch }).__bench = w;
  const readyBefore = Number(document.body.dataset.ready ?? 0);
  const status = () => document.querySelector('.load-status')?.textContent ?? '';
  document.addEventListener('change', (event) => {
    if ((event.target as HTMLInputElement).name !== 'files' || w.start !== null) return;
    w.start = performance.now();
    w.startEpoch = performance.timeOrigin + w.start;
  }, { capture: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (w.start !== null && entry.startTime >= w.start) w.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  const watchLoad = new MutationObserver(() => {
    if (w.start !== null) w.lastStatus = status();
    if (w.firstProgress === null && w.start !== null && /(?:^|· )[1-9][\d,]* blocks · /.test(status())) w.firstProgress = performance.now();
    if (w.readyAt === null && Number(document.body.dataset.ready ?? 0) > readyBefore) {
      w.readyAt = performance.now();
      w.status = status();
    }
  });
  // the status line's text and the body's data-ready only (not the views' tables, rebuilt on each refresh)
  watchLoad.observe(document.querySelector('.load-status')!, { subtree: true, childList: true, characterData: true });
  watchLoad.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  const section = document.querySelector('section[data-view=market]')!;
  const rows = () => section.querySelectorAll('table[data-answer=candles] tbody tr').length;
  let checking = false;
  const check = () => {
    if (w.firstChart !== null) return;
    const n = rows();
    if (n === 0) {
      checking = false; // until the view changes again
      return;
    }
    const v = drawn();
    if (v > 1) {
      w.firstChart = performance.now();
      w.firstChartRows = n;
      w.firstChartVariance = v;
      w.firstChartStatus = status();
      observer.disconnect();
      return;
    }
    requestAnimationFrame(check); // the chart draws on an animation frame of its own
  };
  const observer = new MutationObserver(() => {
    if (w.start === null) return;
    if (w.firstAnswer === null && (section as HTMLElement).dataset.answered) {
      w.firstAnswer = performance.now();
      w.firstAnswerStatus = status();
    }
    if (checking) return;
    checking = true;
    requestAnimationFrame(check);
  });
  observer.observe(section, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-answered'] });
}

/** The text of `selector` now (null when absent), without waiting for it to appear nor longer than `ms` for a busy page. */
async function shown(page: Page, selector: string, ms = 5_000): Promise<string | null> {
  const got = await Promise.race([page.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector).catch(() => null), sleep(ms)]);
  return got === 'slept' ? null : got;
}

const sleep = (ms: number) => new Promise<'slept'>((resolve) => setTimeout(() => resolve('slept'), ms));
const counted = (texts: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([t, n]) => (n > 1 ? `${t} (x${n})` : t));
};
const numberIn = (text: string | null | undefined, name: string): number | null => {
  const hit = new RegExp(`${name} (\\d+)`).exec(text ?? '');
  return hit ? Number(hit[1]) : null;
};

/**
 * Opens `url` in `b`'s page, gives it `files` and follows the load to its end (at most `timeoutMs`,
 * then `chartGraceMs` more for a first chart the load's progress did not bring). A crash, a failed
 * load or a timeout is recorded as the outcome, with what the page showed and the memory by then.
 */
export async function loadInPage(b: BenchPage, url: string, files: readonly string[], timeoutMs: number, chartGraceMs = 15_000): Promise<PageLoad> {
  const { page } = b;
  await page.goto(url);
  await page.waitForSelector('input[name=files]', { state: 'attached' });
  await page.waitForSelector('section[data-view=market] .chart canvas', { state: 'attached' });
  await page.evaluate(`window.__chartVariances = ${chartVariances.toString()}`);
  await page.waitForTimeout(500); // the empty chart has drawn
  const empty = await page.evaluate(() => (window as unknown as { __chartVariances: () => number[] }).__chartVariances());
  if (!empty.some((v) => v <= 1)) throw new Error(`browser: no blank pane in the empty market chart to watch (canvas variances ${empty.map((v) => v.toFixed(0)).join(', ')})`);
  await page.evaluate(installWatch, empty);
  b.memory.sample();
  const idle = { tree: b.memory.lastMiB, pss: b.memory.lastPssMiB };

  const handed = Date.now();
  await page.setInputFiles('input[name=files]', [...files]);
  const deadline = handed + timeoutMs;
  let watch: Watch | undefined;
  let error: string | undefined;
  let endedAt: number | undefined;
  for (;;) {
    if (b.crashed()) break;
    const got = await Promise.race([
      page.evaluate(() => (window as unknown as { __bench: Watch }).__bench).catch((e: unknown) => e as Error),
      sleep(5_000),
    ]);
    if (got instanceof Error) {
      await sleep(1_000); // a crash's event may come after the failed call
      if (!b.crashed()) error = `the page stopped answering: ${got.message.split('\n')[0]}`;
      break;
    }
    if (got !== 'slept') {
      watch = got;
      if (got.readyAt !== null) {
        endedAt ??= Date.now();
        if (got.firstChart !== null || got.status.startsWith('load failed') || Date.now() > endedAt + chartGraceMs) break;
      }
    }
    if (Date.now() > deadline && endedAt === undefined) {
      error = `the load had not ended after ${(timeoutMs / 1000).toFixed(0)} s (status: ${JSON.stringify(await shown(page, '.load-status'))})`;
      break;
    }
    await sleep(250);
  }
  if (!b.crashed()) b.memory.sample(); // (after a crash, the last sample is the renderer's last)
  const m = b.memory;
  const memory = {
    idle_tree_mib: idle.tree, idle_tree_pss_mib: idle.pss, peak_tree_mib: m.peakMiB, peak_tree_pss_mib: m.peakPssMiB, peak_renderer_mib: m.peakRendererMiB,
    last_tree_mib: m.lastMiB, last_tree_pss_mib: m.lastPssMiB, last_renderer_mib: m.lastRendererMiB, processes: m.processes,
  };
  const crash = b.atCrash();
  if (crash) {
    const at = watch?.start != null ? ` ${((Date.now() - handed) / 1000).toFixed(0)} s after the files were given` : '';
    error = `the page's renderer process crashed${at} (the status line last read: ${JSON.stringify(watch?.lastStatus || 'n/a')}); ` +
      `at the last sample before it the browser's processes held ${crash.tree_mib.toFixed(0)} MiB RSS (${crash.tree_pss_mib.toFixed(0)} MiB PSS), ` +
      `the renderer ${crash.renderer_mib.toFixed(0)} MiB (its peak ${crash.peak_renderer_mib.toFixed(0)} MiB)`;
  }
  const alive = !b.crashed() && error === undefined;
  const text = (selector: string) => (alive ? shown(page, selector) : Promise.resolve(null));
  const counts = await text('[data-report=counts]');
  const appError = await text('[data-report=error]');
  const state = alive ? await page.evaluate(() => document.querySelector<HTMLElement>('.load-status')?.dataset.load ?? null).catch(() => null) : null;
  if (error === undefined && (state === 'failed' || appError)) error = `the app's load failed: ${appError ?? watch?.status ?? '?'}`;
  const since = (t: number | null | undefined) => (t != null && watch?.start != null ? t - watch.start : null);
  const seconds = /rows in ([\d.]+) s/.exec(watch?.status ?? '');
  const longTasks = watch?.longTasks ?? [];
  return {
    ended: watch?.readyAt != null,
    ...(error === undefined ? {} : { error }),
    first_chart_ms: since(watch?.firstChart),
    first_progress_ms: since(watch?.firstProgress),
    first_answer_ms: since(watch?.firstAnswer),
    first_answer_status: watch?.firstAnswerStatus ?? '',
    last_status: watch?.lastStatus ?? '',
    full_load_ms: since(watch?.readyAt),
    handover_ms: watch?.startEpoch != null ? watch.startEpoch - handed : null,
    read: numberIn(counts, 'read'),
    ingested: numberIn(counts, 'ingested'),
    rejected: numberIn(counts, 'rejected'),
    blocks: numberIn(counts, 'blocks'),
    worker_seconds: seconds ? Number(seconds[1]) : null,
    status: watch?.status ?? '',
    first_chart: watch?.firstChart != null ? { rows: watch.firstChartRows, variance: watch.firstChartVariance, status: watch.firstChartStatus } : null,
    empty_chart_variances: empty.map((v) => Math.round(v)),
    long_tasks: { count: longTasks.length, max_ms: Math.max(0, ...longTasks), total_ms: longTasks.reduce((a, t) => a + t, 0) },
    errors: counted(b.errors),
    offsite: [...new Set(b.offsite)],
    memory,
  };
}
