/**
 * The `chainlens` command: demo, generate, query, rpc, replay.
 * Exit status: 0 when the request was answered (an error entry is an answer), 1 when loading
 * failed, 2 for a command-line mistake.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeDump } from '../generate/write-dump.js';
import type { FileFormat } from '../ingest/files/detect.js';
import { createTableFileWriter } from '../ingest/files/node-sink.js';
import type { IngestReport } from '../ingest/pipeline.js';
import { createEngine, type Engine } from '../index.node.js';
import { option, parseArgs, UsageError, type ParsedArgs } from './args.js';
import { progressBar } from './progress.js';
import { tour } from './tour.js';

const USAGE = `usage:
  chainlens demo [--minutes N] [--seed S]       generate (or reuse) the demo dump, load it, call every method
  chainlens generate --out DIR [--minutes N] [--seed S] [--format parquet|ndjson|csv|arrow] [--tx-per-block N]
  chainlens query [--data PATH]... [--at T] METHOD [PARAMS_JSON]
  chainlens rpc [--data PATH]...                 one JSON-RPC body per stdin line -> one response array per line
  chainlens replay [--data PATH]... [--speed N|Infinity] [--from T] [--to T] [--retain D|all] METHOD [PARAMS_JSON]
                                                 replay the dump on a simulated clock (speed 1 = real time, the default);
                                                 print every data point the METHOD stream pushes, one JSON object per line;
                                                 the store keeps the last D of transactions (default 15m, at least 5m; all: everything)
Without --data, query, rpc and replay use the demo data.`;

const FORMATS: readonly FileFormat[] = ['parquet', 'ndjson', 'csv', 'arrow'];
const EXTENSIONS: Record<FileFormat, string> = { parquet: 'parquet', ndjson: 'ndjson', csv: 'csv', arrow: 'arrow' };
const DEMO_MINUTES = 5;
const DEMO_SEED = '1';

/** Runs the command line; resolves with the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'demo':
        return await demo(parseArgs(rest));
      case 'generate':
        return await generate(parseArgs(rest));
      case 'query':
        return await query(parseArgs(rest));
      case 'rpc':
        return await rpc(parseArgs(rest));
      case 'replay':
        return await replay(parseArgs(rest));
      case undefined:
      case 'help':
      case '--help':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`chainlens: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof LoadFailed) {
      console.error(`chainlens: loading failed: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

class LoadFailed extends Error {}

function numberOption(args: ParsedArgs, name: string, fallback: number): number {
  const text = option(args, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number, got '${text}'`);
  return value;
}

/** Generates a dump with a progress bar; returns the counts. */
async function generateDump(out: string, format: FileFormat, minutes: number, seed: string, txPerBlock?: number) {
  await mkdir(out, { recursive: true });
  const bar = progressBar();
  const totalBlocks = Math.round(minutes * 150 * 0.97);
  const counts = await writeDump(
    { minutes, seed, txPerBlock },
    (table) => createTableFileWriter(join(out, `${table}.${EXTENSIONS[format]}`), format, table),
    (done) => bar.update(done, totalBlocks, 'generating blocks'),
  );
  bar.done();
  return counts;
}

async function generate(args: ParsedArgs): Promise<number> {
  const out = option(args, 'out');
  if (!out) throw new UsageError('generate needs --out DIR');
  const format = (option(args, 'format') ?? 'parquet') as FileFormat;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  const txPerBlock = option(args, 'tx-per-block') === undefined ? undefined : numberOption(args, 'tx-per-block', 1300);
  const counts = await generateDump(out, format, numberOption(args, 'minutes', 60), option(args, 'seed') ?? DEMO_SEED, txPerBlock);
  console.log(`wrote ${out}: ${Object.entries(counts).map(([t, n]) => `${n} ${t}`).join(', ')} (${format})`);
  return 0;
}

/** The demo dump's folder, generated on first use. */
async function demoData(minutes = DEMO_MINUTES, seed = DEMO_SEED): Promise<string> {
  const home = process.env.CHAINLENS_HOME ?? join(homedir(), '.cache', 'chainlens');
  const dir = join(home, `demo-${minutes}m-seed${seed}`);
  const marker = join(dir, '.complete'); // hidden: loading skips it
  if (await stat(marker).catch(() => undefined)) return dir;
  console.error(`generating the demo market (${minutes} minutes, seed ${seed}) in ${dir} ...`);
  await generateDump(dir, 'parquet', minutes, seed);
  await writeFile(marker, new Date().toISOString() + '\n');
  return dir;
}

/** Creates an engine and loads every path, with a progress bar; fails when nothing could be loaded. */
async function loadEngine(paths: readonly string[]): Promise<{ engine: Engine; report: IngestReport }> {
  const engine = await createEngine();
  const bar = progressBar();
  let report: IngestReport;
  try {
    report = await engine.load(paths.length === 1 ? paths[0] : paths, {
      onProgress: (p) => bar.update(p.rows, undefined, `rows read (${p.files}/${p.totalFiles} files)`),
    });
  } catch (error) {
    bar.done();
    await engine.close();
    throw new LoadFailed((error as Error).message);
  }
  bar.done();
  if (report.read > 0 && report.ingested === 0) {
    await engine.close();
    throw new LoadFailed(`no valid rows in ${paths.join(', ')}; first problem: ${formatRejection(report)}`);
  }
  if (report.rejected > 0) console.error(`loaded with ${report.rejected} rejected rows; first: ${formatRejection(report)}`);
  return { engine, report };
}

const formatRejection = (report: IngestReport) => {
  const r = report.rejections[0];
  return r ? `${r.source}:${r.row} ${r.field}: ${r.message}` : 'none';
};

async function dataPaths(args: ParsedArgs): Promise<string[]> {
  return args.options.get('data') ?? [await demoData()];
}

async function demo(args: ParsedArgs): Promise<number> {
  const dir = await demoData(numberOption(args, 'minutes', DEMO_MINUTES), option(args, 'seed') ?? DEMO_SEED);
  const started = performance.now();
  const { engine, report } = await loadEngine([dir]);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `loaded ${dir}: ${report.blocks} blocks, ${report.ingested} rows (${report.rejected} rejected) in ${seconds.toFixed(1)} s\n`,
  );
  try {
    await tour(engine, (line) => console.log(line));
  } finally {
    await engine.close();
  }
  return 0;
}

/** METHOD and PARAMS_JSON from the positionals. */
function methodAndParams(command: string, args: ParsedArgs): [string, Record<string, unknown>] {
  const [method, paramsText, ...extra] = args.positionals;
  if (!method) throw new UsageError(`${command} needs a METHOD`);
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  let params: Record<string, unknown> = {};
  if (paramsText !== undefined) {
    try {
      params = JSON.parse(paramsText);
    } catch {
      throw new UsageError(`PARAMS_JSON is not JSON: ${paramsText}`);
    }
  }
  return [method, params];
}

/** A time option as the engine takes it: Unix seconds (a number) or ISO-8601 text. */
const timeOption = (args: ParsedArgs, name: string): string | number | undefined => {
  const text = option(args, name);
  return text === undefined || !/^\d+(\.\d+)?$/.test(text) ? text : Number(text);
};

async function query(args: ParsedArgs): Promise<number> {
  const [method, given] = methodAndParams('query', args);
  const at = timeOption(args, 'at');
  const params = at === undefined ? given : { ...given, at };
  const { engine } = await loadEngine(await dataPaths(args));
  try {
    const response = await engine.request({ jsonrpc: '2.0', id: 1, method, params });
    console.log(JSON.stringify(response, null, 2));
  } finally {
    await engine.close();
  }
  return 0;
}

async function rpc(args: ParsedArgs): Promise<number> {
  const { engine } = await loadEngine(await dataPaths(args));
  try {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      process.stdout.write(JSON.stringify(await engine.request(line)) + '\n');
    }
  } finally {
    await engine.close();
  }
  return 0;
}

async function replay(args: ParsedArgs): Promise<number> {
  const [method, params] = methodAndParams('replay', args);
  const speedText = option(args, 'speed') ?? '1';
  const speed = /^(infinity|inf|max)$/i.test(speedText) ? Infinity : Number(speedText);
  if (!(speed > 0)) throw new UsageError(`--speed must be a positive number or Infinity, got '${speedText}'`);
  const from = timeOption(args, 'from');
  const to = timeOption(args, 'to');
  const paths = await dataPaths(args);
  const retainText = option(args, 'retain');
  const retain = retainText === undefined || /^all$/i.test(retainText) ? retainText?.toLowerCase() : /^\d+$/.test(retainText) ? Number(retainText) : retainText;
  const engine = await createEngine();
  try {
    let failed: string | undefined;
    try {
      await engine.subscribe(method, params, (push) => {
        if (push.error) failed = `the stream ended: ${push.error.message}`;
        for (const point of push.result ?? []) process.stdout.write(JSON.stringify(point) + '\n');
      });
    } catch (error) {
      // an unknown method or bad params: the error entry, as `query` prints it
      console.log(JSON.stringify([{ jsonrpc: '2.0', id: null, error: (error as { rpc?: unknown }).rpc ?? String(error) }]));
      return 0;
    }
    let report;
    try {
      report = await engine.replay(paths.length === 1 ? paths[0]! : paths, { speed, from, to, retain });
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw new LoadFailed((error as Error).message);
    }
    if (failed) console.error(`chainlens: ${failed}`);
    console.error(
      `replayed ${report.blocks} blocks (${report.ingested} rows, ${report.rejected} rejected) in ${report.seconds.toFixed(1)} s: ` +
        `${report.blocksPerSecond.toFixed(0)} blocks/s`,
    );
    if (report.rejected > 0) console.error(`first rejected row: ${formatRejection(report)}`);
  } finally {
    await engine.close();
  }
  return 0;
}
