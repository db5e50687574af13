/**
 * What a dump file holds: its table (from the file name, else from its columns) and its format (from
 * the extension, else from the magic bytes).
 */
import { TABLES, type TableName } from '../../schema/tables.js';

/** The file formats chainlens reads and writes. */
export type FileFormat = 'parquet' | 'arrow' | 'ndjson' | 'csv';

const NAME_TOKENS: Readonly<Record<string, TableName>> = {
  blocks: 'blocks',
  transactions: 'transactions',
  txs: 'transactions',
  trades: 'trades',
  tokens: 'tokens',
};

const EXTENSIONS: Readonly<Record<string, FileFormat>> = {
  parquet: 'parquet', pq: 'parquet',
  arrow: 'arrow', arrows: 'arrow', ipc: 'arrow', feather: 'arrow',
  ndjson: 'ndjson', jsonl: 'ndjson',
  csv: 'csv',
};

function baseName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).toLowerCase();
}

/**
 * The table a file name names: one of the words blocks, transactions (or txs), trades, tokens among the
 * name's dot/dash/underscore-separated parts, e.g. `trades.csv`, `2026-01-01.trades.parquet`,
 * `trades-000.ndjson`. Undefined when no such word or two different ones appear (the columns decide).
 */
export function tableFromName(name: string): TableName | undefined {
  const found = new Set<TableName>();
  for (const part of baseName(name).split(/[^a-z0-9]+/)) {
    const table = NAME_TOKENS[part];
    if (table) found.add(table);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * The table whose required columns are all in `columns`. When several match (a trades file has the
 * slot and timestamp that blocks require), a match whose required columns are all among another
 * match's drops out; one must remain. Throws an Error naming the candidates when none matches or the match is ambiguous.
 */
export function tableFromColumns(columns: Iterable<string>, source = 'input'): TableName {
  const present = new Set(columns);
  const required = (table: TableName) => TABLES[table].columns.filter((c) => !c.optional).map((c) => c.name);
  const candidates = (Object.keys(TABLES) as TableName[]).filter((table) => required(table).every((c) => present.has(c)));
  const within = (inner: TableName, outer: TableName) => required(inner).every((c) => required(outer).includes(c));
  // drop a match whose required columns are all among another match's
  const maximal = candidates.filter((table) => !candidates.some((other) => other !== table && within(table, other)));
  if (maximal.length === 1) return maximal[0];
  if (candidates.length === 0) {
    throw new Error(`${source}: cannot tell the table from the file name or columns (${[...present].join(', ') || 'none'}); `
      + 'name the file blocks.*, transactions.* (txs.*), trades.* or tokens.*');
  }
  throw new Error(`${source}: the columns fit several tables (${maximal.join(', ')}); name the file after its table`);
}

/** The format an extension names, if any (.parquet, .arrow/.arrows/.ipc/.feather, .ndjson/.jsonl, .csv). */
export function formatFromName(name: string): FileFormat | undefined {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? undefined : EXTENSIONS[base.slice(dot + 1)];
}

const PAR1 = [0x50, 0x41, 0x52, 0x31];
const ARROW1 = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31];

function startsWith(head: Uint8Array, magic: readonly number[]): boolean {
  return head.length >= magic.length && magic.every((byte, i) => head[i] === byte);
}

/**
 * The format the first bytes show: PAR1 Parquet; ARROW1 an Arrow IPC file; 0xFFFFFFFF (a message
 * continuation marker) an Arrow IPC stream; `{` NDJSON. Undefined otherwise.
 */
export function formatFromMagic(head: Uint8Array): FileFormat | undefined {
  if (startsWith(head, PAR1)) return 'parquet';
  if (startsWith(head, ARROW1) || startsWith(head, [0xff, 0xff, 0xff, 0xff])) return 'arrow';
  let i = 0;
  if (startsWith(head, [0xef, 0xbb, 0xbf])) i = 3; // UTF-8 byte order mark
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  return head[i] === 0x7b ? 'ndjson' : undefined;
}

/** True when the bytes begin with the Arrow IPC file magic `ARROW1`. */
export function isArrowFile(head: Uint8Array): boolean {
  return startsWith(head, ARROW1);
}

/**
 * The format of a file from its name and first bytes (at least 8). Binary magic wins over the name;
 * a name claiming a binary format whose bytes lack its magic is an error, as is a file neither tells.
 */
export function detectFormat(name: string, head: Uint8Array): FileFormat {
  const fromMagic = formatFromMagic(head);
  const fromName = formatFromName(name);
  if (fromMagic === 'parquet' || fromMagic === 'arrow') return fromMagic;
  if (fromName === 'parquet') throw new Error(`${name}: not a Parquet file (no PAR1 magic bytes)`);
  if (fromName === 'arrow' && head.length > 0) throw new Error(`${name}: not an Arrow IPC file or stream (no ARROW1 magic bytes)`);
  if (fromName) return fromName;
  if (fromMagic) return fromMagic;
  throw new Error(`${name}: unknown file format; use a .parquet, .arrow, .ndjson/.jsonl or .csv name`);
}

const BACKUP_EXTENSIONS = new Set(['bak', 'orig', 'tmp', 'swp', 'swo', 'partial', 'crdownload']);

/**
 * Why a file name is not a dump file, if it is not: a hidden file (`.name`), or a backup, temporary
 * or partial copy (`~` at the end; `.bak`, `.orig`, `.tmp`, `.swp`, `.swo`, `.partial`,
 * `.crdownload`). `blocks.arrow.bak` is a copy of a blocks table, not a second one.
 */
export function notDumpFileReason(name: string): string | undefined {
  const base = baseName(name);
  if (base.startsWith('.')) return 'a hidden file';
  const extension = base.slice(base.lastIndexOf('.') + 1);
  if (base.endsWith('~') || (base.includes('.') && BACKUP_EXTENSIONS.has(extension))) return 'a backup, temporary or partial copy';
  return undefined;
}
