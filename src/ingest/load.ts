/**
 * `engine.load`: a dump (files of the canonical tables in any supported format, raw getBlock
 * responses, token lists) through the one ingest pipeline. Token lists go first (their names
 * label the tokens of raw blocks), then raw blocks one file at a time in slot order, then the
 * canonical files, their per-table streams aligned by slot so that every chunk holds whole blocks.
 */
import { TABLES, type TableName } from '../schema/tables.js';
import { openSource, readTableFile, type TableFileInput } from './files/read.js';
import { decodeGetBlockFile, readTokenList, tokenNames, type TokenName } from './solana/index.js';
import { emptyReport, mergeReport, type IngestPipeline, type IngestReport } from './pipeline.js';
import { mergeBySlot } from './slot-merge.js';
import { validateRows, type ValidatedBatch } from './validate.js';

/** Progress of a load: files finished of all, rows read so far. */
export interface LoadProgress {
  files: number;
  totalFiles: number;
  rows: number;
  file: string;
}

export interface LoadOptions {
  /** Rows per batch read from a file (default 65,536). */
  batchRows?: number;
  /** Called after every committed chunk. */
  onProgress?: (progress: LoadProgress) => void;
  /** SIMD-0170 activation slot for raw blocks (default: mainnet's). */
  simd0170ActivationSlot?: bigint;
}

type InputKind = 'table' | 'getBlock' | 'tokenList';
const TABLE_NAMES = Object.keys(TABLES) as TableName[];

const RAW_SLOT = /(?:^|[^\d])(\d{6,})(?:\.|[^\d]|$)/;

/** What a file holds: a canonical table, raw getBlock responses, or a token list. */
async function classify(input: TableFileInput): Promise<InputKind> {
  const name = input.name.toLowerCase();
  if (!/\.json$/.test(name) && !/\.(ndjson|jsonl)$/.test(name)) return 'table';
  const head = new TextDecoder().decode(await (await openSource(input)).head(4096));
  if (/tokenlist/.test(name) || /^\s*\{\s*"name"\s*:[^{]*"tokens"\s*:/.test(head) || /"tokens"\s*:\s*\[\s*\{\s*"chainId"/.test(head)) {
    return 'tokenList';
  }
  if (/\.json$/.test(name)) return 'getBlock';
  // NDJSON: raw blocks when the first line looks like a getBlock result, else canonical rows
  const firstLine = head.split('\n', 1)[0];
  return /"(blockhash|blockTime|previousBlockhash)"|"result"\s*:\s*\{/.test(firstLine) ? 'getBlock' : 'table';
}

async function readText(input: TableFileInput): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of (await openSource(input)).chunks()) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Rows of a decoder as validated batches, one per table (the rows are validated like any input). */
function batchesOf(rows: Partial<Record<TableName, readonly object[]>>, source: string): ValidatedBatch[] {
  return TABLE_NAMES.flatMap((table) => {
    const list = rows[table];
    return list && list.length > 0 ? [validateRows(table, list as Record<string, unknown>[], source)] : [];
  });
}

/** Loads every input through the pipeline; returns the reconciled report. */
export async function loadInputs(
  inputs: readonly TableFileInput[], pipeline: Pick<IngestPipeline, 'commit'>, options: LoadOptions = {},
): Promise<IngestReport> {
  const report = emptyReport();
  const kinds = await Promise.all(inputs.map(classify));
  const of = (kind: InputKind) => inputs.filter((_, i) => kinds[i] === kind);
  let files = 0;
  const progress = (file: string) => options.onProgress?.({ files, totalFiles: inputs.length, rows: report.read, file });

  const names = new Map<string, TokenName>();
  for (const input of of('tokenList')) {
    const tokens = readTokenList(await readText(input));
    for (const [mint, name] of tokenNames(tokens)) names.set(mint, name);
    mergeReport(report, await pipeline.commit(batchesOf({ tokens }, input.name)));
    files++;
    progress(input.name);
  }

  const rawBlocks = of('getBlock').sort((a, b) => compareBySlot(a.name, b.name));
  for (const input of rawBlocks) {
    const decoded = decodeGetBlockFile(await readText(input), input.name, {
      tokenNames: names,
      simd0170ActivationSlot: options.simd0170ActivationSlot,
    });
    const part = await pipeline.commit(batchesOf(decoded, input.name));
    // rows the decoder refused never became rows: count them as read and rejected
    part.read += decoded.rejections.length;
    part.rejected += decoded.rejections.length;
    part.rejections.push(...decoded.rejections);
    part.warnings.push(...decoded.warnings.map((w) => `${w.source}:${w.row}: ${w.field ? `${w.field}: ` : ''}${w.message}`));
    mergeReport(report, part);
    files++;
    progress(input.name);
  }

  const tables = of('table');
  const streams = tables.map((input) => readTableFile(input, { batchRows: options.batchRows }));
  for await (const chunk of mergeBySlot(streams)) {
    mergeReport(report, await pipeline.commit(chunk));
    progress(chunk[chunk.length - 1].source);
  }
  files += tables.length;
  progress('');
  return report;
}

function compareBySlot(a: string, b: string): number {
  const slotA = RAW_SLOT.exec(a)?.[1];
  const slotB = RAW_SLOT.exec(b)?.[1];
  if (slotA && slotB && slotA !== slotB) return BigInt(slotA) < BigInt(slotB) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
