/**
 * `npm run bench`: runs every figure family (or those of `--only`), each subject beside its
 * baselines in this one process (the ingest and start-up figures in child processes, for their own
 * memory; the browser figures in Chromium), and writes bench/results/latest.json and the table of docs/performance.md.
 * `--quick` runs small sizes: a smoke run of the bench code, not figures to quote.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bandwidthFigure } from './bandwidth.js';
import { browserFigures } from './browser/figures.js';
import { e2eFigures } from './e2e/figures.js';
import { longReplayFigures } from './e2e/long-replay.js';
import type { Figure } from './harness.js';
import { ingestFigures } from './ingest.js';
import { feeFigures } from './kernels-fees.js';
import { marketFigures } from './kernels-market.js';
import { percentileFigures } from './kernels-percentiles.js';
import { latencyFigures } from './latency.js';
import { localFeeFigures } from './local-fees.js';
import { describeMachine, loadAverage, type Machine } from './machine.js';
import { FAMILIES, parseOptions, type BenchOptions, type Family } from './options.js';
import { recommendationFigures } from './recommendation.js';
import { renderReport } from './report.js';
import { serverFigures } from './server/figures.js';
import { startupFigures } from './startup.js';

/** The whole JSON result of a run. */
export interface BenchResults {
  schema: 1;
  date: string;
  mode: 'full' | 'quick';
  duration_s: number;
  machine: Machine;
  /** Bytes per second of the plain typed-array sum (the bandwidth figure), when it ran. */
  memory_bandwidth_bytes_per_s: number | null;
  figures: Figure[];
  /** Families that threw: their error, never a figure. */
  failures: { family: Family; error: string }[];
}

const FAMILY_RUNNERS: Record<Family, (options: BenchOptions) => Promise<Figure | Figure[]>> = {
  bandwidth: bandwidthFigure,
  fees: feeFigures,
  percentiles: percentileFigures,
  market: marketFigures,
  recommendation: recommendationFigures,
  latency: latencyFigures,
  localfees: localFeeFigures,
  server: serverFigures,
  browser: browserFigures,
  startup: startupFigures,
  ingest: ingestFigures,
  e2e: e2eFigures,
  longrun: longReplayFigures,
};

/** Runs the families of `options` and returns the results (without writing them). */
export async function runBench(options: BenchOptions, log: (line: string) => void = () => {}): Promise<BenchResults> {
  const started = Date.now();
  const results: BenchResults = {
    schema: 1,
    date: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    duration_s: 0,
    machine: describeMachine(),
    memory_bandwidth_bytes_per_s: null,
    figures: [],
    failures: [],
  };
  for (const family of options.only) {
    const begun = Date.now();
    const load = loadAverage();
    log(`${family}: running (load average ${load.join(' ')})`);
    try {
      const made = await FAMILY_RUNNERS[family](options);
      for (const figure of Array.isArray(made) ? made : [made]) {
        figure.date = new Date(begun).toISOString();
        figure.load_average = load;
        results.figures.push(figure);
        log(`  ${figure.title}: ${summary(figure)}`);
      }
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results.failures.push({ family, error: text });
      log(`  FAILED: ${text}`);
    }
    log(`${family}: ${((Date.now() - begun) / 1000).toFixed(1)} s`);
  }
  results.memory_bandwidth_bytes_per_s = memoryBandwidth(results.figures);
  for (const figure of results.figures) addBandwidth(figure, results.memory_bandwidth_bytes_per_s);
  results.machine.load_average_end = loadAverage();
  results.duration_s = Math.round((Date.now() - started) / 100) / 10;
  return results;
}

/** The memory bandwidth measured by the bandwidth figure among `figures`, if there is one. */
function memoryBandwidth(figures: readonly Figure[]): number | null {
  return figures.find((f) => f.family === 'bandwidth')?.subjects[0]?.per_second ?? null;
}

/** chainlens' input bytes per second beside the measured memory bandwidth. */
function addBandwidth(figure: Figure, memory: number | null): void {
  const mine = figure.subjects.find((s) => s.id === 'chainlens');
  if (!mine || !figure.work.bytes || figure.family === 'bandwidth') return;
  const bytesPerSecond = figure.work.bytes / (mine.stats.median_ms / 1000);
  figure.bandwidth = { bytes_per_s: bytesPerSecond, fraction_of_memory_bandwidth: memory ? bytesPerSecond / memory : NaN };
}

function summary(figure: Figure): string {
  const parts = figure.subjects.map((s) => `${s.id} ${s.stats.median_ms.toFixed(3)} ms`);
  const targets = figure.targets.map((t) => `${t.text}: ${t.measured === null ? 'n/a' : t.measured.toFixed(2)} ${t.met ? 'met' : 'MISSED'}`);
  return [...parts, ...targets].join('; ');
}

/**
 * The figures of the families this run did not measure, from the results file it replaces (each
 * with the date and commit of the run that measured it), so that `--only` updates its families alone.
 */
export async function keptFigures(results: BenchResults, file: string): Promise<Figure[]> {
  const previous = await readFile(file, 'utf8').then((text) => JSON.parse(text) as BenchResults, () => undefined);
  if (!previous || previous.mode !== results.mode) return [];
  const measured = new Set(results.figures.map((f) => f.family).concat(results.failures.map((f) => f.family)));
  return previous.figures.filter((f) => !measured.has(f.family))
    // an older results file may not say its machine or commit
    .map((f) => ({ ...f, date: f.date ?? previous.date, commit: f.commit ?? previous.machine?.source?.commit }));
}

/** Writes the JSON (and the markdown report unless `docs` is empty). */
export async function writeResults(results: BenchResults, options: BenchOptions): Promise<void> {
  await mkdir(path.dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(results, null, 2)}\n`);
  if (options.docs !== '') {
    await mkdir(path.dirname(options.docs), { recursive: true });
    await writeFile(options.docs, renderReport(results));
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]!)) && /run\.js$/.test(process.argv[1]!);
if (isMain) {
  const options = parseOptions(process.argv.slice(2));
  const results = await runBench(options, (line) => console.log(line));
  const kept = await keptFigures(results, options.out);
  results.figures = [...results.figures, ...kept].sort((a, b) => FAMILIES.indexOf(a.family) - FAMILIES.indexOf(b.family));
  results.memory_bandwidth_bytes_per_s ??= memoryBandwidth(kept);
  await writeResults(results, options);
  console.log(`wrote ${options.out}${options.docs ? ` and ${options.docs}` : ''} (${results.duration_s} s)`);
  // Native DuckDB and worker handles are closed; exit anyway so that no stray timer holds the run open.
  process.exit(results.failures.length > 0 ? 1 : 0);
}
