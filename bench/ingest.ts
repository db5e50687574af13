/**
 * Ingest of a generated one-hour dump (Parquet, about 8,700 blocks and 11 million transactions),
 * written to a temporary folder within the run: `engine.load(folder)` from a fresh process,
 * blocks/s, transactions/s and the process's peak resident memory. Beside it, for scale, native
 * DuckDB reading the same files into plain tables (no per-block statistics, windows or
 * recommendations: what loading the raw rows alone costs). Each is one run in its own process
 * (a load takes minutes), so these figures have no spread.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { elapsedMs, statsOfSamples, type Figure, type SubjectResult } from './harness.js';
import type { BenchOptions } from './options.js';
import { childArgs, isChildOf, peakRssMiB, printResult, rssMiB, runChild } from './child.js';

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

const TABLES = ['blocks', 'transactions', 'trades', 'tokens'] as const;

async function generate(folder: string, minutes: number): Promise<Generated> {
  const { writeDump } = await import('../src/generate/write-dump.js');
  const { createTableFileWriter } = await import('../src/ingest/files/node-sink.js');
  const start = process.hrtime.bigint();
  const counts = await writeDump({ minutes, seed: 1 }, (table) => createTableFileWriter(path.join(folder, `${table}.parquet`), 'parquet', table));
  return { seconds: elapsedMs(start) / 1000, counts };
}

async function loadWithEngine(folder: string): Promise<Loaded> {
  const { createEngine } = await import('../src/index.node.js');
  const before = rssMiB();
  const engine = await createEngine();
  const start = process.hrtime.bigint();
  const report = await engine.load(folder);
  const seconds = elapsedMs(start) / 1000;
  const peak = peakRssMiB();
  await engine.close();
  return { seconds, blocks: report.blocks, rows: report.ingested, rejected: report.rejected, rss_before_mib: before, peak_rss_mib: peak };
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
    if (engine.blocks !== blocks || engine.rejected !== 0) {
      throw new Error(`ingest: the engine committed ${engine.blocks} of ${blocks} blocks, rejected ${engine.rejected} rows`);
    }
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
        'The dump is generated within the run (src/generate, seed 1) into a temporary folder, then loaded by a fresh process; peak RSS is that process\'s maximum resident set (process.resourceUsage().maxRSS).',
        'chainlens decodes Parquet with parquet-wasm, validates every row, stores the raw tables in DuckDB-WASM and computes every method\'s per-block state (fee statistics, windows, recommendations, market aggregates) as it goes; native DuckDB only copies the rows, with 2 threads.',
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
    : await loadWithNative(folder!);
  printResult(result);
  process.exit(0);
}
