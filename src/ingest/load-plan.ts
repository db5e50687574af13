/**
 * What a load does with each of its inputs, decided before any row is read: which files are token
 * lists, raw getBlock files (and their slots, for the order) or canonical tables, and which files of
 * a folder are skipped and why. Files found in a folder that cannot be loaded (an unknown format, a
 * hidden file, a backup copy) are skipped with a warning (an error in a strict load); a file named by
 * itself that cannot be loaded is an error.
 */
import type { TableName } from '../schema/tables.js';
import { peekBlockSlot } from './block-slot-peek.js';
import { slotFromName } from './solana/index.js';
import { CsvSplitter } from './files/csv.js';
import { truncatedArrowFile } from './files/arrow-ipc.js';
import { detectFormat, isArrowFile, notDumpFileReason, tableFromColumns, tableFromName } from './files/detect.js';
import { truncatedParquet } from './files/parquet-decoder.js';
import { openSource, readText, type TableFileInput } from './files/read.js';

/** The inputs of a load by kind, each list in load order, and the warnings about skipped files. */
export interface LoadPlan {
  tokenLists: TableFileInput[];
  /** Canonical `tokens` tables (read before the blocks: they have no slot). */
  tokenTables: TableFileInput[];
  /** Raw getBlock files, ascending by the slot of their first block (files whose slot is unknown last). */
  rawBlocks: TableFileInput[];
  /** Canonical tables with a slot (blocks, transactions, trades). */
  slotTables: TableFileInput[];
  warnings: string[];
}

type Kind = { kind: 'tokenList' | 'getBlock' } | { kind: 'table'; table: TableName | undefined } | { kind: 'skip'; reason: string };

const HEAD_BYTES = 4096;

/** Sorts the inputs into a plan; throws for an input that cannot be loaded (any skipped file, when `strict`). */
export async function planLoad(inputs: readonly TableFileInput[], options: { strict?: boolean } = {}): Promise<LoadPlan> {
  if (inputs.length === 0) throw new Error('nothing to load: the source names no file');
  const plan: LoadPlan = { tokenLists: [], tokenTables: [], rawBlocks: [], slotTables: [], warnings: [] };
  const skipped: string[] = [];
  const loadable = new Map<string, number>();
  const raw: { input: TableFileInput; slot: bigint | undefined }[] = [];
  for (const input of inputs) {
    const where = input.path ?? input.name;
    if (input.folder !== undefined) loadable.set(input.folder, loadable.get(input.folder) ?? 0);
    const kind = await kindOf(input);
    if (kind.kind === 'skip') {
      skipped.push(`${where} (${kind.reason})`);
      continue;
    }
    if (input.folder !== undefined) loadable.set(input.folder, loadable.get(input.folder)! + 1);
    if (kind.kind === 'tokenList') plan.tokenLists.push(input);
    else if (kind.kind === 'getBlock') raw.push({ input, slot: await rawBlockSlot(input) });
    else if (kind.kind === 'table' && kind.table === 'tokens') plan.tokenTables.push(input);
    else plan.slotTables.push(input);
  }
  if (skipped.length > 0 && options.strict) {
    throw new Error(`strict load: ${skipped.length === 1 ? 'a file' : `${skipped.length} files`} cannot be loaded: ${skipped.join('; ')}`);
  }
  plan.warnings.push(...skipped.map((s) => `skipped ${s}`));
  for (const [folder, count] of loadable) if (count === 0) plan.warnings.push(`no loadable files in ${folder}`);
  plan.rawBlocks = raw.sort((a, b) => compareSlots(a.slot, b.slot)).map((r) => r.input);
  return plan;
}

/** What an input is; for a file named by itself, anything but a loadable file throws. */
async function kindOf(input: TableFileInput): Promise<Kind> {
  const inFolder = input.folder !== undefined;
  if (input.skip !== undefined) return { kind: 'skip', reason: input.skip };
  const reason = inFolder ? notDumpFileReason(input.name) : undefined;
  if (reason) return { kind: 'skip', reason };
  try {
    return await classify(input);
  } catch (error) {
    if (!inFolder) throw error;
    return { kind: 'skip', reason: (error as Error).message.replace(`${input.name}: `, '') };
  }
}

/** What a file holds: a canonical table, raw getBlock responses, or a token list. */
async function classify(input: TableFileInput): Promise<Kind> {
  const name = input.name.toLowerCase();
  const headBytes = await (await openSource(input)).head(HEAD_BYTES);
  const head = new TextDecoder().decode(headBytes);
  if (/\.(json|ndjson|jsonl)$/.test(name)) {
    if (/tokenlist/.test(name) || /^\s*\{\s*"name"\s*:[^{]*"tokens"\s*:/.test(head) || /"tokens"\s*:\s*\[\s*\{\s*"chainId"/.test(head)) {
      return { kind: 'tokenList' };
    }
    if (/\.json$/.test(name)) return { kind: 'getBlock' };
    // NDJSON: raw blocks when the first line looks like a getBlock result, else canonical rows
    const firstLine = head.split('\n', 1)[0];
    if (/"(blockhash|blockTime|previousBlockhash)"|"result"\s*:\s*\{/.test(firstLine)) return { kind: 'getBlock' };
  }
  const format = detectFormat(input.name, headBytes);
  const cut = await truncation(input, format, headBytes);
  if (cut) throw new Error(`${input.name}: ${cut}`);
  const columns = format === 'csv' || format === 'ndjson' ? headerColumns(head, format, headBytes.length < HEAD_BYTES) : undefined;
  return { kind: 'table', table: tableFromName(input.name) ?? (columns && tableFromColumns(columns, input.name)) };
}

/**
 * Why a Parquet or Arrow IPC file cannot be read, when its footer is missing (cut short): told
 * before the load begins, so such a file in a folder is skipped rather than failing the load half-way.
 * A one-shot stream is not read ahead for it (its reader reports it).
 */
async function truncation(input: TableFileInput, format: string, head: Uint8Array): Promise<string | undefined> {
  if (input.stream !== undefined) return undefined;
  if (format === 'parquet') return truncatedParquet(await (await openSource(input)).blob());
  if (format === 'arrow' && isArrowFile(head)) return truncatedArrowFile(await (await openSource(input)).blob());
  return undefined;
}

/** The column names on a text file's first row, when the head holds all of it. */
function headerColumns(head: string, format: 'csv' | 'ndjson', whole: boolean): string[] | undefined {
  if (format === 'csv') {
    const splitter = new CsvSplitter();
    const [header] = [...splitter.push(head), ...(whole ? splitter.end() : [])];
    return header?.fields.map((field) => (field ?? '').trim());
  }
  const line = head.split('\n').find((l) => l.trim() !== '');
  try {
    const row: unknown = JSON.parse(line ?? '');
    return row !== null && typeof row === 'object' && !Array.isArray(row) ? Object.keys(row) : undefined;
  } catch {
    return undefined; // a long or broken first line: the reader decides and reports
  }
}

/** Bytes peeked at in turn before reading the whole file (a wrapper whose slot follows a big block). */
const PEEK_BYTES = [HEAD_BYTES, 64 << 10, 1 << 20];

/** The slot of a raw file's first block: peeked from its first bytes (more when they do not tell), else from its name. */
async function rawBlockSlot(input: TableFileInput): Promise<bigint | undefined> {
  const source = await openSource(input);
  for (const bytes of PEEK_BYTES) {
    const head = await source.head(bytes);
    const peek = peekBlockSlot(new TextDecoder().decode(head), head.length < bytes);
    if (peek !== 'more') return peek.slot ?? slotFromName(input.name) ?? undefined;
  }
  const whole = peekBlockSlot(await readText(input), true); // never 'more': the text is complete
  return (whole === 'more' ? undefined : whole.slot) ?? slotFromName(input.name) ?? undefined;
}

function compareSlots(a: bigint | undefined, b: bigint | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
