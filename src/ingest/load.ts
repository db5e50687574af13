/**
 * `engine.load`: a dump (files of the canonical tables in any supported format, raw getBlock
 * responses, token lists) through the one ingest pipeline, in this order (load-plan.ts sorts the
 * files): token lists first (their names label the tokens of raw blocks), then canonical tokens
 * tables, then the blocks of raw getBlock files (ascending by slot, one file at a time) and of the
 * canonical tables, all aligned by slot so that blocks commit in slot order across both kinds and
 * every chunk holds whole blocks.
 */
import { TABLES, type TableName } from '../schema/tables.js';
import type { FileBatch } from './files/reader.js';
import { readTableFile, readText, type TableFileInput } from './files/read.js';
import { readInSlotOrder } from './files/slot-order.js';
import type { ParquetDecoder } from './files/parquet-decoder.js';
import { IncompleteBlocks } from './incomplete-blocks.js';
import { planLoad } from './load-plan.js';
import { decodeGetBlockFile, readTokenList, tokenNames, type TokenName } from './solana/index.js';
import { emptyReport, mergeReport, type IngestPipeline, type IngestReport, type StartedChunk } from './pipeline.js';
import { mergeBySlot } from './slot-merge.js';
import { validateRows, type ValidatedBatch } from './validate.js';

/** Progress of a load: files finished of all, rows read and blocks committed so far. */
export interface LoadProgress {
  files: number;
  totalFiles: number;
  rows: number;
  blocks: number;
  file: string;
}

export interface LoadOptions {
  /** Rows per batch read from a file (default 65,536). */
  batchRows?: number;
  /** Called after every committed chunk. */
  onProgress?: (progress: LoadProgress) => void;
  /** SIMD-0170 activation slot for raw blocks (default: mainnet's). */
  simd0170ActivationSlot?: bigint;
  /**
   * A file in a folder that cannot be loaded (an unknown format, a hidden file, a backup copy) is
   * an error instead of a skipped file with a warning (default false).
   */
  strict?: boolean;
  /**
   * A Parquet transactions file's write-locked and read-only accounts (most of its bytes) are
   * checked at load and left in the file: the write-locked ones are read back when a local fee
   * market (chain::priorityfee::estimate, ::recent) first asks for their blocks, so the file must
   * stay where it is, unchanged, while its blocks are held (a read back from a file that changed
   * fails, naming it). Default true; false reads them at load, as other formats are.
   */
  accountsInFile?: boolean;
  /**
   * A Parquet transactions file's signatures, where the file declares them required, are left in
   * it undecoded: a block's top transactions read theirs back when first answered (so, again, the
   * file must stay as it is). False decodes them at load with the other text. An engine's default:
   * false while chain::priorityfee::top_txs is streamed (it answers every block's at once), else true.
   */
  signaturesInFile?: boolean;
  /**
   * Stops the load before its next chunk (a server shutting down): the chunk being committed is
   * finished, and the load rejects with the signal's reason; what was committed stays.
   */
  signal?: AbortSignal;
}

const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** Rows of a decoder as validated batches, one per table (the rows are validated like any input). */
async function batchesOf(rows: Partial<Record<TableName, readonly object[]>>, source: string): Promise<ValidatedBatch[]> {
  const batches: ValidatedBatch[] = [];
  for (const table of TABLE_NAMES) {
    const list = rows[table];
    if (list && list.length > 0) batches.push(await validateRows(table, list as Record<string, unknown>[], source));
  }
  return batches;
}

/**
 * Chunks read ahead of the one being committed: the next ones are read, decoded and started
 * (`IngestPipeline.start`: their transactions' forms made in the kernel worker) while the consumer
 * commits this one. One ahead left the forms' worker starting each chunk's forms just as its commit
 * began (the chunk after was not read yet), and the commit waited for them (~2 s of the hour's load).
 */
const CHUNKS_AHEAD = 2;

/** The items of `source`, `CHUNKS_AHEAD` of them requested before the consumer takes the first. */
async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const items = source[Symbol.asyncIterator]();
  const pending: Promise<IteratorResult<T>>[] = [];
  try {
    for (;;) {
      while (pending.length < CHUNKS_AHEAD) {
        const next = items.next();
        next.catch(() => undefined); // its error is thrown where it is awaited
        pending.push(next);
      }
      const item = await pending.shift()!;
      if (item.done) return;
      yield item.value;
    }
  } finally {
    await items.return?.();
  }
}

/** Loads every input through the pipeline; returns the reconciled report. */
export async function loadInputs(
  inputs: readonly TableFileInput[], pipeline: Pick<IngestPipeline, 'commit'> & Partial<Pick<IngestPipeline, 'start'>>, options: LoadOptions = {},
  /** Who decodes Parquet: an engine passes its kernel worker, so that decoding runs on the other core. */
  parquet?: ParquetDecoder,
): Promise<IngestReport> {
  const plan = await planLoad(inputs, options);
  const report = emptyReport();
  report.warnings.push(...plan.warnings);
  // what the load itself refused or noticed, beyond the committed batches
  const own = emptyReport();
  const incomplete = new IncompleteBlocks();
  const totalFiles = plan.tokenLists.length + plan.tokenTables.length + plan.rawBlocks.length + plan.slotTables.length;
  let files = 0;
  const progress = (file: string) => options.onProgress?.({ files, totalFiles, rows: report.read + own.read, blocks: report.blocks, file });
  const commit = async (chunk: FileBatch[], started?: StartedChunk) => {
    options.signal?.throwIfAborted();
    incomplete.observe(chunk);
    mergeReport(report, await pipeline.commit(started ?? chunk));
    progress(chunk.at(-1)?.source ?? '');
  };

  const names = new Map<string, TokenName>();
  for (const input of plan.tokenLists) {
    const tokens = readTokenList(await readText(input));
    for (const [mint, name] of tokenNames(tokens)) names.set(mint, name);
    files++;
    await commit(await batchesOf({ tokens }, input.name));
  }

  // a tokens table names its mints as the dump's author meant: a raw block's row (names from a token list at best) does not overwrite it
  const tabled = new Set<string>();
  const read = { batchRows: options.batchRows, parquet, keyListsInFile: options.accountsInFile ?? true, textHeld: true,
    signaturesInFile: options.signaturesInFile ?? true };
  for await (const chunk of mergeBySlot(plan.tokenTables.map((input) => readTableFile(input, read)))) {
    for (const batch of chunk) for (const mint of batch.rows.getChild('mint')?.toArray() ?? []) tabled.add(mint as string);
    await commit(chunk);
  }
  files += plan.tokenTables.length;

  async function* rawBlocks(): AsyncGenerator<ValidatedBatch> {
    for (const input of plan.rawBlocks) {
      const decoded = decodeGetBlockFile(await readText(input), input.name, {
        tokenNames: names,
        simd0170ActivationSlot: options.simd0170ActivationSlot,
      });
      // rows the decoder refused never became rows: counted here as read and rejected
      own.read += decoded.rejections.length;
      own.rejected += decoded.rejections.length;
      own.rejections.push(...decoded.rejections);
      own.warnings.push(...decoded.warnings.map((w) => `${w.source}:${w.row}: ${w.field ? `${w.field}: ` : ''}${w.message}`));
      incomplete.observeRaw(input.name, decoded.blockStats);
      files++;
      yield* await batchesOf({ ...decoded, tokens: decoded.tokens.filter((t) => !tabled.has(t.mint)) }, input.name);
    }
  }
  const tableStreams = plan.slotTables.map((input) => readInSlotOrder(input, read, (w) => own.warnings.push(w)));
  // each chunk started as it is read: its transactions' forms are made while the chunk before commits
  async function* startEach(chunks: AsyncIterable<FileBatch[]>) {
    for await (const chunk of chunks) yield { chunk, started: pipeline.start?.(chunk) };
  }
  for await (const { chunk, started } of readAhead(startEach(mergeBySlot([rawBlocks(), ...tableStreams])))) await commit(chunk, started);
  files += plan.slotTables.length;

  mergeReport(report, own);
  report.warnings.push(...incomplete.warnings());
  progress('');
  return report;
}
