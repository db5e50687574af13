/**
 * Ingest of a generated one-hour dump (Parquet, about 8,700 blocks and 11 million transactions),
 * written to a temporary folder within the run: `engine.load(folder)` from a fresh process,
 * blocks/s, transactions/s and the process's peak resident memory; and a replay of the same dump
 * with every method streamed and a bounded history (blocks/s, memory over the simulated hour). Beside it, for scale, native
 * DuckDB reading the same files into plain tables (no per-block statistics, windows or
 * recommendations: what loading the raw rows alone costs). Each is one run in its own process
 * (a load takes minutes), so these figures have no spread.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { elapsedMs, statsOfSamples, type Figure, type SubjectResult } from './harness.js';
import type { ReplayInput } from '../src/index.js';
import type { BenchOptions } from './options.js';
import { childArgs, isChildOf, peakRssMiB, printResult, rssMiB, runChild } from './child.js';
import { importChainlens } from './engine-entry.js';

interface Generated {
  seconds: number;
  counts: Record<string, number>;
}

interface Loaded {
  seconds: number;
  blocks: number;
  rows: number;
  rejected: number;
  rss_before_mib: number;
  peak_rss_mib: number;
}

/** What the replay child reports. */
export interface Replayed {
  seconds: number;
  blocks: number;
  blocks_per_s: number;
  rejected: number;
  pushed_points: number;
  ended_subscriptions: number;
  peak_rss_mib: number;
  /** Resident memory sampled once a second, with the simulated clock (minutes since the first block). */
  samples: { minute: number; rss_mib: number }[];
}

const TABLES = ['blocks', 'transactions', 'trades', 'tokens'] as const;

/** Transactions the replay keeps (its default, stated so the figure says it): a quarter of the dump, so the plateau shows. */
const REPLAY_RETAIN = '15m';

/** What a strategy would watch: every method once, windows up to an hour. */
export const REPLAY_STREAMS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['chain::market::token', {}],
  ['chain::priorityfee::block', {}],
  ['chain::priorityfee::fee', { window: '1h' }],
  ['chain::priorityfee::recommendation', { window: '1m' }],
  ['chain::priorityfee::top_txs', { window: '5m' }],
  ['chain::market::block', {}],
  ['chain::market::ohlcv', { window: '1m' }],
  ['chain::market::volume', { window: '1h' }],
  ['chain::market::vwap', { window: '5m' }],
  ['chain::market::twap', { window: '1m' }],
  ['chain::market::trades', {}],
  ['chain::market::ingestion', {}],
];

async function generate(folder: string, minutes: number): Promise<Generated> {
  const { writeDump } = await import('../src/generate/write-dump.js');
  const { createTableFileWriter } = await import('../src/ingest/files/node-sink.js');
  const start = process.hrtime.bigint();
  const counts = await writeDump({ minutes, seed: 1 }, (table) => createTableFileWriter(path.join(folder, `${table}.parquet`), 'parquet', table));
  return { seconds: elapsedMs(start) / 1000, counts };
}

async function loadWithEngine(folder: string): Promise<Loaded> {
  const { createEngine } = await importChainlens();
  const before = rssMiB();
  const engine = await createEngine();
  const start = process.hrtime.bigint();
  const report = await engine.load(folder);
  const seconds = elapsedMs(start) / 1000;
  const peak = peakRssMiB();
  await engine.close();
  return { seconds, blocks: report.blocks, rows: report.ingested, rejected: report.rejected, rss_before_mib: before, peak_rss_mib: peak };
}

/** A replay at speed Infinity with a subscription to every method, memory sampled as it goes. */
/**
 * A replay at speed Infinity in a fresh engine with every REPLAY_STREAMS method subscribed (the
 * subscribers only count), resident memory sampled once a second against the simulated clock.
 */
export async function replayStreamed(source: ReplayInput, retain?: string): Promise<Replayed> {
  const { createEngine } = await importChainlens();
  const engine = await createEngine();
  let pushed = 0;
  let ended = 0;
  for (const [method, params] of REPLAY_STREAMS) {
    await engine.subscribe(method, params, (push) => {
      pushed += push.result?.length ?? 0;
      if (push.error) ended++;
    });
  }
  const start = process.hrtime.bigint();
  const replay = engine.replay(source, { speed: Infinity, ...(retain === undefined ? {} : { retain }) });
  const raw: { time: bigint | undefined; rss: number }[] = [];
  const timer = setInterval(() => raw.push({ time: replay.time, rss: rssMiB() }), 1000);
  const report = await replay;
  clearInterval(timer);
  const seconds = elapsedMs(start) / 1000;
  const peak = peakRssMiB();
  await engine.close();
  const first = report.firstTime ?? 0n;
  const samples = raw.filter((r) => r.time !== undefined).map((r) => ({ minute: Number(r.time! - first) / 60e9, rss_mib: r.rss }));
  return {
    seconds, blocks: report.blocks, blocks_per_s: report.blocksPerSecond, rejected: report.rejected,
    pushed_points: pushed, ended_subscriptions: ended, peak_rss_mib: peak, samples,
  };
}

/** The largest resident memory sampled while the simulated clock was in [from, to) minutes. */
export function rssBetween(samples: Replayed['samples'], from: number, to: number): number | null {
  const inside = samples.filter((s) => s.minute >= from && s.minute < to).map((s) => s.rss_mib);
  return inside.length ? Math.max(...inside) : null;
}

async function loadWithNative(folder: string): Promise<Loaded> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const before = rssMiB();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const start = process.hrtime.bigint();
  let rows = 0;
  for (const table of TABLES) {
    await connection.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet('${path.join(folder, `${table}.parquet`)}')`);
    rows += Number((await connection.runAndReadAll(`SELECT count(*) AS n FROM ${table}`)).getRowObjects()[0]!.n);
  }
  const seconds = elapsedMs(start) / 1000;
  const blocks = Number((await connection.runAndReadAll('SELECT count(*) AS n FROM blocks')).getRowObjects()[0]!.n);
  const peak = peakRssMiB();
  connection.closeSync();
  instance.closeSync();
  return { seconds, blocks, rows, rejected: 0, rss_before_mib: before, peak_rss_mib: peak };
}

/** The ingest figure: a one-hour dump (two minutes in quick mode). */
export async function ingestFigures(options: BenchOptions): Promise<Figure[]> {
  const minutes = options.quick ? 2 : 60;
  const folder = await mkdtemp(path.join(tmpdir(), 'chainlens-dump-'));
  try {
    const generated = await runChild<Generated>(import.meta.url, ['generate', folder, String(minutes)]);
    const { blocks, transactions, trades } = generated.counts as Record<'blocks' | 'transactions' | 'trades', number>;
    const engine = await runChild<Loaded>(import.meta.url, ['engine', folder]);
    const native = await runChild<Loaded>(import.meta.url, ['native', folder]);
    const replayed = await runChild<Replayed>(import.meta.url, ['replay', folder]);
    for (const [what, done] of [['load', engine], ['replay', replayed]] as const) {
      if (done.blocks !== blocks || done.rejected !== 0) {
        throw new Error(`ingest: the engine's ${what} committed ${done.blocks} of ${blocks} blocks, rejected ${done.rejected} rows`);
      }
    }
    const quarters = [0, 1, 2, 3].map((q) => rssBetween(replayed.samples, (q * minutes) / 4, ((q + 1) * minutes) / 4));
    const subject = (id: string, label: string, loaded: Loaded): SubjectResult => {
      const stats = statsOfSamples([loaded.seconds * 1000]);
      return { id, label, stats, per_second: blocks / loaded.seconds, note: 'one run' };
    };
    return [{
      id: 'ingest.one-hour-dump',
      family: 'ingest',
      title: `Ingest of a generated ${minutes === 60 ? 'one-hour' : `${minutes}-minute`} dump`,
      size: `${blocks.toLocaleString('en-US')} blocks, ${transactions.toLocaleString('en-US')} transactions, ${trades.toLocaleString('en-US')} trades (Parquet, snappy)`,
      work: { unit: 'blocks', count: blocks },
      subjects: [
        subject('chainlens', 'chainlens engine.load (every method\'s state built)', engine),
        subject('duckdb-native', 'native DuckDB read_parquet into raw tables (no aggregates)', native),
      ],
      skipped: [{ id: 'duckdb-wasm', label: 'DuckDB-WASM', reason: 'cannot read Parquet offline (its parquet extension is downloaded at run time)' }],
      targets: [],
      values: {
        blocks_per_s: blocks / engine.seconds,
        transactions_per_s: transactions / engine.seconds,
        trades_per_s: trades / engine.seconds,
        peak_rss_mib: engine.peak_rss_mib,
        native_blocks_per_s: blocks / native.seconds,
        native_transactions_per_s: transactions / native.seconds,
        native_peak_rss_mib: native.peak_rss_mib,
        generate_seconds: generated.seconds,
      },
      notes: [
        'The dump is generated within the run (src/generate, seed 1) into a temporary folder, then loaded by a fresh process; peak RSS is that process\'s own high-water mark of resident memory (VmHWM: getrusage\'s maxRSS counts what the runner held when it forked it).',
        'chainlens decodes Parquet with parquet-wasm, validates every row, stores the raw tables in DuckDB-WASM and computes every method\'s per-block state (fee statistics, windows, recommendations, market aggregates) as it goes; native DuckDB only copies the rows, with 2 threads.',
      ],
    }, {
      id: 'ingest.replay-one-hour',
      family: 'ingest',
      title: `Replay of the same dump at speed Infinity, every method streamed, retain ${REPLAY_RETAIN}`,
      size: `${blocks.toLocaleString('en-US')} blocks; ${REPLAY_STREAMS.length} subscriptions (one per method)`,
      work: { unit: 'blocks', count: blocks },
      subjects: [{
        id: 'chainlens', label: `chainlens engine.replay (speed Infinity, retain ${REPLAY_RETAIN})`,
        stats: statsOfSamples([replayed.seconds * 1000]), per_second: replayed.blocks_per_s, note: 'one run',
      }],
      skipped: [],
      targets: [],
      values: {
        blocks_per_s: replayed.blocks_per_s,
        transactions_per_s: (transactions * replayed.blocks_per_s) / blocks,
        pushed_data_points: replayed.pushed_points,
        subscriptions_ended: replayed.ended_subscriptions,
        peak_rss_mib: replayed.peak_rss_mib,
        ...Object.fromEntries(quarters.map((rss, q) => [`peak_rss_mib_minutes_${(q * minutes) / 4}_to_${((q + 1) * minutes) / 4}`, rss])),
        load_peak_rss_mib: engine.peak_rss_mib,
      },
      notes: [
        'The replay reads the dump as load does and commits it block by block through the same ingest path, pushing every streamed method\'s new data points after each block (a subscriber that only counts them).',
        `With retain ${REPLAY_RETAIN} (the replay default) the store deletes the transactions older than the newest block minus ${REPLAY_RETAIN} as it goes (docs/semantics.md, Retention), so they stop growing once that span is full, where the load above keeps every transaction for as-of queries. What still grows within the hour is the streamed 1h fee window's exact incremental state (about 150 bytes a fee-paying sample: the largest window streamed here, emptied when the hour turns) and DuckDB-WASM's heap, which reuses freed blocks but never returns memory to the system: the resident memory per quarter of the simulated hour.`,
      ],
    }];
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (isChildOf(import.meta.url)) {
  const [mode, folder, minutes] = childArgs();
  const result = mode === 'generate' ? await generate(folder!, Number(minutes))
    : mode === 'engine' ? await loadWithEngine(folder!)
    : mode === 'replay' ? await replayStreamed(folder!, REPLAY_RETAIN)
    : await loadWithNative(folder!);
  printResult(result);
  process.exit(0);
}
