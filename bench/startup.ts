/**
 * Engine start-up: time and memory from a fresh process to the first answer (import chainlens,
 * createEngine, the first ingest of tokens and one block, which opens DuckDB-WASM and starts the
 * kernel worker, then the first call), beside what opening each SQL baseline alone costs. Every
 * repetition is a new Node process, so each one pays the whole cold start.
 */
import { elapsedMs, statsOfSamples, type Figure, type SubjectResult } from './harness.js';
import type { BenchOptions } from './options.js';
import { childArgs, isChildOf, printResult, rssMiB, runChild } from './child.js';
import { importChainlens } from './engine-entry.js';

/** What one child measured. */
interface StartupSample {
  total_ms: number;
  rss_before_mib: number;
  rss_after_mib: number;
  steps: Record<string, number>;
}

async function engineStartup(): Promise<StartupSample> {
  const rss = rssMiB();
  const start = process.hrtime.bigint();
  const steps: Record<string, number> = {};
  let at = start;
  const step = (name: string) => {
    steps[name] = elapsedMs(at);
    at = process.hrtime.bigint();
  };
  const { createEngine } = await importChainlens();
  const { generateBlocks, generateTokens } = await import('../src/generate/market.js');
  step('import_ms');
  const engine = await createEngine();
  step('create_engine_ms');
  const block = generateBlocks({ blocks: 1, seed: 5 }).next().value!;
  at = process.hrtime.bigint(); // generating the block is not start-up
  await engine.ingest({ tokens: generateTokens(), blocks: [block.block], transactions: block.transactions, trades: block.trades });
  step('first_ingest_ms');
  const answer = await engine.call('chain::priorityfee::block', { limit: 1 });
  if (answer.length !== 1) throw new Error('startup: the first call answered no block');
  step('first_call_ms');
  const total = Object.values(steps).reduce((a, b) => a + b, 0);
  const after = rssMiB();
  await engine.close();
  return { total_ms: total, rss_before_mib: rss, rss_after_mib: after, steps };
}

async function wasmStartup(): Promise<StartupSample> {
  const rss = rssMiB();
  const start = process.hrtime.bigint();
  const { openDuckDBNode } = await import('../src/store/duckdb-node.js');
  const sql = await openDuckDBNode();
  await sql.queryRows('SELECT 1 AS one');
  const total = elapsedMs(start);
  const after = rssMiB();
  await sql.close();
  return { total_ms: total, rss_before_mib: rss, rss_after_mib: after, steps: {} };
}

async function nativeStartup(): Promise<StartupSample> {
  const rss = rssMiB();
  const start = process.hrtime.bigint();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.runAndReadAll('SELECT 1 AS one');
  const total = elapsedMs(start);
  const after = rssMiB();
  connection.closeSync();
  instance.closeSync();
  return { total_ms: total, rss_before_mib: rss, rss_after_mib: after, steps: {} };
}

const MODES = { engine: engineStartup, 'duckdb-wasm': wasmStartup, 'duckdb-native': nativeStartup } as const;
const LABELS: Record<keyof typeof MODES, string> = {
  engine: 'chainlens engine: import to first answer',
  'duckdb-wasm': 'DuckDB-WASM alone: import, open, first query',
  'duckdb-native': 'native DuckDB alone: import, open, first query',
};

/** The start-up figure: each mode in fresh processes (5 each; 1 in quick mode). */
export async function startupFigures(options: BenchOptions): Promise<Figure[]> {
  const runs = options.quick ? 1 : 5;
  const subjects: SubjectResult[] = [];
  const values: Record<string, number> = {};
  for (const mode of Object.keys(MODES) as (keyof typeof MODES)[]) {
    const samples: StartupSample[] = [];
    for (let i = 0; i < runs; i++) samples.push(await runChild<StartupSample>(import.meta.url, [mode]));
    const stats = statsOfSamples(samples.map((s) => s.total_ms));
    subjects.push({ id: mode, label: LABELS[mode], stats, per_second: 1000 / stats.median_ms });
    const medianOf = (f: (s: StartupSample) => number) => statsOfSamples(samples.map(f)).median_ms;
    values[`${mode}_rss_added_mib`] = medianOf((s) => s.rss_after_mib - s.rss_before_mib);
    values[`${mode}_rss_after_mib`] = medianOf((s) => s.rss_after_mib);
    for (const step of Object.keys(samples[0]!.steps)) values[`${mode}_${step}`] = medianOf((s) => s.steps[step]!);
  }
  return [{
    id: 'startup.engine',
    family: 'startup',
    title: 'Engine start-up and memory',
    size: `${runs} fresh Node processes per subject`,
    work: { unit: 'start-ups', count: 1 },
    subjects,
    skipped: [],
    targets: [],
    values,
    notes: [
      'chainlens opens DuckDB-WASM and starts its kernel worker with the first data, so the first ingest carries most of the start-up.',
      'Memory: resident set size added between the process start and the first answer (medians).',
    ],
  }];
}

if (isChildOf(import.meta.url)) {
  const mode = childArgs()[0] as keyof typeof MODES;
  printResult(await MODES[mode]());
  process.exit(0);
}
