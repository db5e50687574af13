/**
 * The end-to-end family: from the same Parquet files on disk to the same answers (answers.ts),
 * chainlens beside native DuckDB and Polars, each a fresh process, on a 10-minute and a one-hour
 * mainnet-profile dump (a tiny one in quick mode). The subjects run in turn, ROUNDS times (once in
 * quick mode), each after the dump's files were read through (the same page cache for all: this
 * machine's reclaims otherwise leave some runs reading the disk), and each figure is the run of the
 * median wall time; the answers are cross-checked against chainlens' before any figure is kept;
 * then chainlens runs once more under the profiler for the stage shares. Beside them: replay of
 * the longest dump with every method subscribed, and start-up to the first answer on a 2-minute dump.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runChild } from '../child.js';
import { speedup, statsOfSamples, type Figure, type SubjectResult, type Target } from '../harness.js';
import type { Replayed } from '../ingest.js';
import type { BenchOptions } from '../options.js';
import { compareAnswers, readAnswers, type SubjectRun } from './answers.js';
import { ensureDump, MAINNET, TINY, warmDump, type Dump } from './dumps.js';
import { profileStages, STAGES } from './stages.js';

/** The subjects: id, label, module. */
export const E2E_SUBJECTS = [
  ['chainlens', 'chainlens (createEngine, load, calls)', new URL('./chainlens.js', import.meta.url).href],
  ['duckdb-native', 'native DuckDB (read_parquet + SQL)', new URL('./duckdb-native.js', import.meta.url).href],
  ['polars', 'Polars (scanParquet + lazy group_by)', new URL('./polars.js', import.meta.url).href],
] as const;

/** Targets of the issue (the columnar engine is where they are to be met). */
export const E2E_TARGETS = { loadBlocksPerSecond: 1_000, replayBlocksPerSecond: 500, oneHourPeakMiB: 1_024, firstAnswerMs: 1_000 } as const;

interface ChainlensRun extends SubjectRun {
  blocks: number;
  rejected: number;
}

const mib = (v: number) => Math.round(v * 10) / 10;
const count = (n: number) => n.toLocaleString('en-US');
/** The start of a dump figure's size: its blocks and transactions. */
const blocksAndTransactions = ({ counts }: Dump) => `${count(counts.blocks)} blocks, ${count(counts.transactions)} transactions`;

/** Rounds of the subjects in turn in a full run: single runs on this shared machine varied by up to 1.5x. */
const ROUNDS = 3;

/** A subject's runs (in round order) and the one of median wall time, which its figure reports. */
interface SubjectRuns<R extends SubjectRun = SubjectRun> {
  all: R[];
  median: R;
}

function medianRun<R extends SubjectRun>(all: R[]): SubjectRuns<R> {
  return { all, median: [...all].sort((a, b) => a.wall_ms - b.wall_ms)[(all.length - 1) >> 1]! };
}

/**
 * Each subject `rounds` times, in turn (A B C A B C ...), the dump's files read through before each
 * run; `run` runs one subject (it may throw: see `tolerate`).
 */
async function inTurn(
  dump: Dump, rounds: number, run: (id: string, module: string) => Promise<SubjectRun>, tolerate?: (id: string, error: unknown) => boolean,
): Promise<Record<string, SubjectRuns>> {
  const all: Record<string, SubjectRun[]> = {};
  const failed = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    for (const [id, , module] of E2E_SUBJECTS) {
      if (failed.has(id)) continue;
      await warmDump(dump);
      try {
        (all[id] ??= []).push(await run(id, module));
      } catch (error) {
        if (!tolerate?.(id, error)) throw error;
        failed.add(id);
        delete all[id];
      }
    }
  }
  return Object.fromEntries(Object.entries(all).map(([id, runs]) => [id, medianRun(runs)]));
}

function subject(id: string, label: string, runs: SubjectRuns, work: number): SubjectResult {
  const { all, median } = runs;
  const note = all.length === 1 ? 'one run' : `${all.length} runs in turn with the other subjects, the median's figures`;
  return { id, label, stats: statsOfSamples(all.map((r) => r.wall_ms)), per_second: work / (median.wall_ms / 1000), note };
}

/** Why a chainlens child started at `started` (performance.now()) gave no result: its time and error. */
function didNotFinish(started: number, error: unknown): string {
  return `did not finish: it failed after ${((performance.now() - started) / 1000).toFixed(0)} s with ${(error as Error).message.replace(/^child .*? exited with /, 'exit status ')}`;
}

/** What every dump's figure says whatever its outcome: id, title, size, work, notes. */
function dumpFigureBase(dump: Dump, label: string) {
  const { blocks, trades, tokens } = dump.counts;
  return {
    id: `e2e.${label}`,
    family: 'e2e' as const,
    title: `End to end, ${label} dump: Parquet files to answers (a)-(e)`,
    size: `${blocksAndTransactions(dump)}, ${count(trades)} trades, ${count(tokens)} tokens (mainnet profile, Parquet, snappy; ${path.basename(dump.folder)})`,
    work: { unit: 'blocks', count: blocks },
    notes: [
      'Each subject is one fresh Node process started on the same files: wall time from the process start (Node\'s own start-up included) to its last answer, CPU time (user + system, all threads) and peak resident set (process.resourceUsage) at that point.',
      'chainlens: createEngine, engine.load(folder) (decode, validate, the transactions kept as resident columns, the rest stored in DuckDB-WASM, every method\'s per-block state), then the public calls: (a) chain::priorityfee::block paged back 1,000 blocks a call with `at`, (b) chain::priorityfee::fee 1m, (c) chain::market::ohlcv 1m of every token against USDC, USDT and SOL, (d) chain::priorityfee::recommendation 1m, (e) chain::market::volume and vwap 5m of the 10 pairs with the most trades.',
      'Native DuckDB reads the Parquet files into tables (the columns the answers need) and answers with SQL; Polars scans the files lazily and answers with group_by, one lazy query per answer (each reads the columns it needs from the files); both on their default threads (2 cores here). Their percentiles are the nearest rank written out (the sorted list at rank ceil(p x n / 100)), as chainlens defines them.',
    ],
  };
}

/** The targets of a dump's figure; `mine` undefined when chainlens did not finish (each target missed, nothing measured). */
function dumpTargets(subjects: SubjectResult[], runs: Record<string, SubjectRun>, blocks: number, label: string): Target[] {
  const mine = runs.chainlens as ChainlensRun | undefined;
  const loadRate = mine ? blocks / (mine.steps.load_ms! / 1000) : null;
  const peers = E2E_SUBJECTS.slice(1).map(([id]) => runs[id]!);
  const memoryRatio = mine ? mine.peak_rss_mib / Math.min(...peers.map((p) => p.peak_rss_mib)) : null;
  const failed = (target: Target): Target => (mine ? target : { ...target, measured: null, met: false });
  return [
    { ...speedup(subjects, 'duckdb-native', 1), text: 'faster than native DuckDB on (a)-(e) together (wall time)' },
    { ...speedup(subjects, 'polars', 1), text: 'faster than Polars on (a)-(e) together (wall time)' },
    {
      text: `load >= ${E2E_TARGETS.loadBlocksPerSecond.toLocaleString('en-US')} blocks/s`, kind: 'min-rate', required: E2E_TARGETS.loadBlocksPerSecond,
      measured: loadRate, met: loadRate !== null && loadRate >= E2E_TARGETS.loadBlocksPerSecond,
    },
    { text: 'peak RSS below both peers\' (chainlens / the smaller peer)', kind: 'max-ratio', required: 1, measured: memoryRatio, met: memoryRatio !== null && memoryRatio < 1 },
    ...(label === 'one-hour' ? [{
      text: 'peak RSS < 1 GiB', kind: 'max-mib', required: E2E_TARGETS.oneHourPeakMiB,
      measured: mine?.peak_rss_mib ?? null, met: mine !== undefined && mine.peak_rss_mib < E2E_TARGETS.oneHourPeakMiB,
    }] : []),
  ].map((t) => failed(t as Target));
}

/**
 * The figure of one dump: every subject once, cross-checked, then the profile of chainlens. A
 * chainlens run that does not finish (a dump too large for it) is recorded as such, beside the
 * peers' figures; a peer that fails is a fault of the benchmark and fails the family.
 */
async function dumpFigure(dump: Dump, label: string, scratch: string, rounds: number): Promise<Figure> {
  const { blocks, transactions } = dump.counts;
  const base = dumpFigureBase(dump, label);
  let failure: string | undefined;
  let started = 0;
  const measured = await inTurn(dump, rounds, (id, module) => {
    started = performance.now();
    return runChild<SubjectRun>(module, [dump.folder, path.join(scratch, `${id}.json`)]);
  }, (id, error) => {
    if (id !== 'chainlens') return false; // a peer that fails is the benchmark's fault
    failure = didNotFinish(started, error);
    return true;
  });
  const runs = Object.fromEntries(Object.entries(measured).map(([id, r]) => [id, r.median]));
  const values: Record<string, number | string> = {};
  for (const [id] of E2E_SUBJECTS) {
    const run = runs[id];
    if (!run) continue;
    values[`${id}_wall_s`] = run.wall_ms / 1000;
    values[`${id}_cpu_s`] = run.cpu_ms / 1000;
    values[`${id}_peak_rss_mib`] = mib(run.peak_rss_mib);
  }
  if (failure !== undefined) {
    const subjects = E2E_SUBJECTS.slice(1).map(([id, name]) => subject(id, name, measured[id]!, blocks));
    values.chainlens_failed = failure;
    return {
      ...base, subjects, skipped: [{ id: 'chainlens', label: E2E_SUBJECTS[0][1], reason: failure }], targets: dumpTargets(subjects, runs, blocks, label), values,
      checked: 'nothing: chainlens gave no answers to compare with',
    };
  }

  const mine = runs.chainlens as ChainlensRun;
  if (mine.blocks !== blocks || mine.rejected !== 0) throw new Error(`e2e: chainlens loaded ${mine.blocks} of ${blocks} blocks, rejected ${mine.rejected} rows`);
  const answers = await readAnswers(path.join(scratch, 'chainlens.json'));
  let compared = 0;
  for (const [id] of E2E_SUBJECTS.slice(1)) compared += compareAnswers(answers, await readAnswers(path.join(scratch, `${id}.json`)), id);
  const stages = await profileStages(E2E_SUBJECTS[0][2], dump.folder);
  const profiled = STAGES.reduce((sum, s) => sum + stages.all[s], 0);

  const subjects = E2E_SUBJECTS.map(([id, name]) => subject(id, name, measured[id]!, blocks));
  values.chainlens_blocks_per_s = blocks / (mine.wall_ms / 1000);
  values.chainlens_transactions_per_s = transactions / (mine.wall_ms / 1000);
  values.chainlens_load_blocks_per_s = blocks / (mine.steps.load_ms! / 1000);
  for (const [id] of E2E_SUBJECTS.slice(1)) {
    const run = runs[id]!;
    values[`wall_ratio_chainlens_to_${id}`] = mine.wall_ms / run.wall_ms;
    values[`cpu_ratio_chainlens_to_${id}`] = mine.cpu_ms / run.cpu_ms;
    values[`rss_ratio_chainlens_to_${id}`] = mine.peak_rss_mib / run.peak_rss_mib;
  }
  for (const [step, ms] of Object.entries(mine.steps)) values[`chainlens_${step.replace(/_ms$/, '')}_s`] = ms / 1000;
  for (const s of STAGES) values[`chainlens_stage_${s}_pct`] = profiled ? (100 * stages.all[s]) / profiled : 0;
  // the serving thread: what every answer waits behind (the other threads run beside it)
  values.chainlens_serving_busy_s = STAGES.reduce((sum, s) => sum + stages.serving[s], 0) / 1000;
  for (const s of STAGES) values[`chainlens_serving_${s}_s`] = stages.serving[s] / 1000;
  return {
    ...base,
    subjects,
    skipped: [],
    targets: dumpTargets(subjects, runs, blocks, label),
    values,
    checked: `every row of (a)-(e) of native DuckDB and of Polars against chainlens' answers (${compared.toLocaleString('en-US')} values): ` +
      'integers, times and percentiles exactly, floats within 1e-9 (f64) or 2e-6 (f32 on the wire); the USD fields are chainlens\' only',
    notes: [
      ...base.notes,
      `Stage shares: chainlens run once more under --cpu-prof (${(profiled / 1000).toFixed(1)} s of CPU profiled, every thread), self time by source path: decode = src/ingest/files, solana, arrow + parquet-wasm; validate = src/ingest/validate; compute = src/kernels, priorityfee, market, windows + the kernel worker; store = src/store + DuckDB-WASM + apache-arrow; other = the engine, pipeline, method calls, Node and GC.`,
    ],
  };
}

/** Replay of `dump` with every method subscribed (the ingest family's replay child). */
async function replayFigure(dump: Dump, label: string): Promise<Figure> {
  const base = {
    id: `e2e.replay-${label}`,
    family: 'e2e' as const,
    title: `Replay of the ${label} dump, every method subscribed`,
    size: `${blocksAndTransactions(dump)}; 12 subscriptions (one per method)`,
    work: { unit: 'blocks', count: dump.counts.blocks },
    notes: ['The ingest family\'s replay (bench/ingest.ts): engine.replay at speed Infinity, retain 15m, one subscription to each of the 12 methods counting the pushed data points.'],
  };
  const target = { text: `replay >= ${E2E_TARGETS.replayBlocksPerSecond} blocks/s with every method subscribed`, kind: 'min-rate', required: E2E_TARGETS.replayBlocksPerSecond } as const;
  const started = performance.now();
  let replayed;
  try {
    replayed = await runChild<Replayed>(new URL('../ingest.js', import.meta.url).href, ['replay', dump.folder]);
  } catch (error) {
    const reason = didNotFinish(started, error);
    return { ...base, subjects: [], skipped: [{ id: 'chainlens', label: 'chainlens engine.replay (speed Infinity)', reason }], targets: [{ ...target, measured: null, met: false }], values: { chainlens_failed: reason } };
  }
  if (replayed.blocks !== dump.counts.blocks || replayed.rejected !== 0) throw new Error(`e2e: the replay committed ${replayed.blocks} of ${dump.counts.blocks} blocks`);
  return {
    ...base,
    subjects: [{
      id: 'chainlens', label: 'chainlens engine.replay (speed Infinity)', stats: statsOfSamples([replayed.seconds * 1000]), per_second: replayed.blocks_per_s, note: 'one run',
    }],
    skipped: [],
    targets: [{ ...target, measured: replayed.blocks_per_s, met: replayed.blocks_per_s >= E2E_TARGETS.replayBlocksPerSecond }],
    values: {
      blocks_per_s: replayed.blocks_per_s,
      transactions_per_s: (dump.counts.transactions * replayed.blocks_per_s) / dump.counts.blocks,
      pushed_data_points: replayed.pushed_points,
      peak_rss_mib: mib(replayed.peak_rss_mib),
    },
  };
}

/** Start-up to the first answer (d) on a small dump: each subject in a fresh process. */
async function startupFigure(dump: Dump, label: string, scratch: string, rounds: number): Promise<Figure> {
  const subjects: SubjectResult[] = [];
  const values: Record<string, number> = {};
  const measured = await inTurn(dump, rounds, (id, module) => runChild<SubjectRun>(module, [dump.folder, path.join(scratch, `${id}-first.json`), 'first']));
  for (const [id, name] of E2E_SUBJECTS) {
    const runs = measured[id]!;
    subjects.push(subject(id, name, runs, 1));
    values[`${id}_cpu_s`] = runs.median.cpu_ms / 1000;
    values[`${id}_peak_rss_mib`] = mib(runs.median.peak_rss_mib);
  }
  return {
    id: `e2e.first-answer-${label}`,
    family: 'e2e',
    title: `Start-up to the first answer, ${label} dump`,
    size: blocksAndTransactions(dump),
    work: { unit: 'first answers', count: 1 },
    subjects,
    skipped: [],
    targets: [{
      text: 'first answer < 1 s', kind: 'max-latency', required: E2E_TARGETS.firstAnswerMs,
      measured: subjects[0]!.stats.median_ms, met: subjects[0]!.stats.median_ms < E2E_TARGETS.firstAnswerMs,
    }],
    values,
    notes: ['From the process start to the 1m recommendation at the newest block (d): chainlens loads the whole dump first (its per-block state is built as it loads); the peers read the files and answer (d) only.'],
  };
}

const minutesLabel = (minutes: number): string => (minutes === 60 ? 'one-hour' : `${minutes}-minute`);

/** The end-to-end figures: the dumps of `e2eMinutes` (10 minutes and one hour by default; a tiny dump in quick mode). */
export async function e2eFigures(options: BenchOptions): Promise<Figure[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'chainlens-e2e-'));
  try {
    if (options.quick) {
      const tiny = await ensureDump(TINY, path.join(scratch, 'dumps'));
      return [await dumpFigure(tiny, 'tiny', scratch, 1), await replayFigure(tiny, 'tiny'), await startupFigure(tiny, 'tiny', scratch, 1)];
    }
    const figures: Figure[] = [];
    for (const minutes of options.e2eMinutes) figures.push(await dumpFigure(await ensureDump(MAINNET(minutes)), minutesLabel(minutes), scratch, ROUNDS));
    const longest = Math.max(...options.e2eMinutes);
    figures.push(await replayFigure(await ensureDump(MAINNET(longest)), minutesLabel(longest)));
    figures.push(await startupFigure(await ensureDump(MAINNET(2)), minutesLabel(2), scratch, ROUNDS));
    return figures;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
