/**
 * The text of chosen rows of a chunk's transactions (signature, signer, program: what the store
 * keeps of each block's best fee payers). A load from Parquet leaves it with the decoder, which
 * checked it and holds it while the file loads (files/parquet.ts), and the chunk's table holds
 * nulls in its place: those rows are taken from the decoder, the others from the table.
 */
import type { Table } from 'apache-arrow';
import { rowsToTable, tableToRows } from './arrow.js';
import type { RowOrigins } from './chunk-accounts.js';
import { pickUtf8, takeUtf8, utf8At, type Utf8Values } from './utf8-values.js';
import { FileSignatures, signatureAt, signatureText, signatureValues, type KeptSignatures } from './signature-values.js';
import type { DeferredColumns, ValidatedBatch } from './validate.js';

/** The text columns of a transactions table. */
export const TEXT_COLUMNS = ['signature', 'signer', 'program'] as const;

/**
 * Chosen rows' text: the signatures as kept (a file's decoder packs them, or leaves them in the file
 * unread), the signers and programs as UTF-8 values.
 */
export interface RowText {
  readonly signature: KeptSignatures;
  readonly signer: Utf8Values;
  readonly program: Utf8Values;
}
type TextColumns = Record<(typeof TEXT_COLUMNS)[number], Utf8Values>;

/** Whether rows of a transactions table left their text in their file (nulls in its place). */
export const textInFile = (table: Table): boolean => (table.getChild('signature')?.nullCount ?? 0) > 0;

/** Rows `rows` of the table's own text. */
export const tableText = (table: Table, rows: Uint32Array): TextColumns =>
  Object.fromEntries(TEXT_COLUMNS.map((name) => [name, takeUtf8(table.getChild(name)!, rows)])) as TextColumns;

/** A file's held text of its rows `rows` (0-based), by column name. */
async function fromFile(file: DeferredColumns, rows: Uint32Array): Promise<RowText> {
  const { columns, take, signatures } = file.text!;
  const values = await take(rows);
  const [signature, signer, program] = TEXT_COLUMNS.map((name) => values[columns.indexOf(name)]!);
  return { signature: signatures ? new FileSignatures(signatures, rows) : signature!, signer: signer as Utf8Values, program: program as Utf8Values };
}

/**
 * The text of rows `rows` of `table`, a chunk's transactions (its `batches`, less the rows the
 * commit rejected; `origins` says where each row came from).
 */
export async function chunkText(table: Table, batches: readonly ValidatedBatch[], origins: () => RowOrigins, rows: Uint32Array): Promise<RowText> {
  if (!textInFile(table)) return tableText(table, rows);
  const { batch, local } = origins();
  const signature = table.getChild('signature')!;
  const allInFile = signature.nullCount === signature.length;
  // each row's source (-1: the table, else a file) and its row there
  const files: DeferredColumns[] = [];
  const source = new Int32Array(rows.length);
  const at = new Uint32Array(rows.length);
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j]!;
    if (!allInFile && signature.isValid(i)) {
      source[j] = -1;
      at[j] = i;
      continue;
    }
    const { deferred, rowNumbers } = batches[batch[i]!]!;
    if (!deferred?.text) throw new Error(`transactions row ${i} has no text and its batch left none in a file`);
    let k = files.indexOf(deferred);
    if (k < 0) k = files.push(deferred) - 1;
    source[j] = k;
    at[j] = Number(rowNumbers![local[i]!]) - 1;
  }
  if (files.length === 1 && allInFile) return fromFile(files[0]!, at);
  // mixed (rare: a batch failed the decoder's checks): each source's rows taken apart as text, then put back in the order asked
  const rowsOf = (k: number) => at.filter((_, j) => source[j] === k);
  const asText = async (text: RowText): Promise<TextColumns> => ({ ...text, signature: signatureText(await signatureValues(text.signature)) });
  const taken = await Promise.all(files.map(async (file, k) => asText(await fromFile(file, rowsOf(k)))));
  const own = await asText(tableText(table, rowsOf(-1)));
  const position = new Uint32Array(rows.length);
  const seen = new Int32Array(files.length + 1);
  for (let j = 0; j < rows.length; j++) position[j] = seen[source[j]! + 1]++;
  const from = source.map((k) => k + 1); // own text first, then each file's
  return Object.fromEntries(TEXT_COLUMNS.map((name) => [name, pickUtf8([own[name], ...taken.map((t) => t[name])], from, position)])) as TextColumns;
}

/**
 * The table with every row's text in it (a commit that drops rows or derives fees rebuilds the
 * table row by row, which needs every column's values).
 */
export async function withText(table: Table, batches: readonly ValidatedBatch[], origins: () => RowOrigins): Promise<Table> {
  if (!textInFile(table)) return table;
  const text = await chunkText(table, batches, origins, Uint32Array.from({ length: table.numRows }, (_, i) => i));
  const signatures = await signatureValues(text.signature);
  const rows = tableToRows('transactions', table);
  rows.forEach((row, i) => {
    for (const name of TEXT_COLUMNS) row[name] = name === 'signature' ? signatureAt(signatures, i) : utf8At(text[name], i);
  });
  return rowsToTable('transactions', rows);
}
