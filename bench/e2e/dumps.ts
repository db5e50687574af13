/**
 * The mainnet-profile Parquet dumps of the end-to-end figures, generated on first use (in a child
 * process, streamed: an hour never sits in memory) and cached under .chainlens/bench/ (ignored by
 * git) with a `.complete` marker, so that every run and subject reads the same files.
 */
import { mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MarketOptions } from '../../src/generate/market.js';
import { childArgs, isChildOf, printResult, runChild } from '../child.js';

/** A generated dump on disk. */
export interface Dump {
  folder: string;
  minutes: number;
  counts: Record<'blocks' | 'transactions' | 'trades' | 'tokens', number>;
}

/** Where the cached dumps live (relative to the working directory: the repository when run by npm). */
export const DUMP_ROOT = path.join('.chainlens', 'bench');

/** The market of a full run's dumps. */
export const MAINNET = (minutes: number): MarketOptions => ({ profile: 'mainnet', minutes, seed: 1 });
/** The quick mode's tiny market: a wide market of 200 pairs, half a minute of light blocks. */
export const TINY: MarketOptions = { profile: 'mainnet', pairs: 200, swapsPerSecond: 100, txPerBlock: 300, minutes: 0.3, seed: 1 };

const MARKER = '.complete';
/** The generator's data revision, in a dump's folder name: bump it when the generated rows change (2: write-locked accounts). */
const REVISION = 2;

/** The dump of `options` in `root`, generated unless a complete one is there. */
export async function ensureDump(options: MarketOptions, root = DUMP_ROOT): Promise<Dump> {
  const name = `${options.profile ?? 'default'}-${options.minutes}m-seed${options.seed}` +
    (options.pairs ? `-${options.pairs}pairs-${options.swapsPerSecond}sps-${options.txPerBlock}tx` : '') + `-r${REVISION}`;
  const folder = path.resolve(root, name);
  const marker = path.join(folder, MARKER);
  if (await stat(marker).catch(() => undefined)) return JSON.parse(await readFile(marker, 'utf8')) as Dump;
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const counts = await runChild<Dump['counts']>(import.meta.url, [folder, JSON.stringify(options)]);
  const dump: Dump = { folder, minutes: options.minutes ?? 1, counts };
  await writeFile(marker, JSON.stringify(dump));
  return dump;
}

/** Reads every file of the dump through once (in 1 MiB pieces, kept nowhere), so that the next run finds it in the page cache. */
export async function warmDump(dump: Dump): Promise<void> {
  const piece = new Uint8Array(1 << 20);
  for (const name of await readdir(dump.folder)) {
    const file = await open(path.join(dump.folder, name));
    try {
      while ((await file.read(piece, 0, piece.length, null)).bytesRead > 0);
    } finally {
      await file.close();
    }
  }
}

async function generate(folder: string, options: MarketOptions): Promise<Dump['counts']> {
  const { writeDump } = await import('../../src/generate/write-dump.js');
  const { createTableFileWriter } = await import('../../src/ingest/files/node-sink.js');
  return writeDump(options, (table) => createTableFileWriter(path.join(folder, `${table}.parquet`), 'parquet', table));
}

if (isChildOf(import.meta.url)) {
  const [folder, options] = childArgs();
  printResult(await generate(folder!, JSON.parse(options!) as MarketOptions));
  process.exit(0);
}
