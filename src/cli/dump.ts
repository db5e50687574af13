/** Generated dumps for the command line: `generate`'s output and the demo's cached market. */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { MarketOptions } from '../generate/market.js';
import { writeDump, type DumpCounts } from '../generate/write-dump.js';
import type { FileFormat } from '../ingest/files/detect.js';
import { createTableFileWriter } from '../ingest/files/node-sink.js';
import { progress } from './progress.js';

/** The file formats `generate` writes. */
export const FORMATS: readonly FileFormat[] = ['parquet', 'ndjson', 'csv', 'arrow'];

const EXTENSIONS: Record<FileFormat, string> = { parquet: 'parquet', ndjson: 'ndjson', csv: 'csv', arrow: 'arrow' };
// 150 slots a minute, about 3% of them skipped
const blocksIn = (minutes: number) => Math.round(minutes * 150 * 0.97);

/** Generates a dump into `out`, one file per table, with progress on stderr; returns the counts. */
export async function generateDump(out: string, format: FileFormat, options: MarketOptions): Promise<DumpCounts> {
  await mkdir(out, { recursive: true });
  const bar = progress('generating', 'blocks');
  const total = options.minutes === undefined ? undefined : blocksIn(options.minutes);
  const counts = await writeDump(
    options,
    (table) => createTableFileWriter(join(out, `${table}.${EXTENSIONS[format]}`), format, table),
    (done) => bar.update(done, total),
  );
  bar.done();
  return counts;
}

/**
 * The demo dump's folder, under CHAINLENS_HOME (default ~/.cache/chainlens), generated on first use.
 * The marker of a finished generation sits beside that folder, so that loading the folder reads only the tables.
 */
export async function demoData(minutes: number, seed: string): Promise<string> {
  const home = process.env.CHAINLENS_HOME ?? join(homedir(), '.cache', 'chainlens');
  const demo = join(home, `demo-${minutes}m-seed${seed}`);
  const dir = join(demo, 'tables');
  const marker = join(demo, 'complete');
  if (await stat(marker).catch(() => undefined)) return dir;
  console.error(`generating the demo market (${minutes} minutes, seed ${seed}) in ${dir} ...`);
  await generateDump(dir, 'parquet', { minutes, seed });
  await writeFile(marker, new Date().toISOString() + '\n');
  return dir;
}
