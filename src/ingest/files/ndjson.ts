/**
 * NDJSON reader: one JSON object per line, integers read exactly (parseJsonExact), rows named by their
 * 1-based line number. Blank lines are skipped; a line that is not a JSON object (a truncated last
 * line included) is rejected on its own.
 */
import { parseJsonExact } from '../exact-json.js';
import type { Rejection } from '../validate.js';
import type { FileBatch, FileValidator, ReaderContext } from './reader.js';
import { validatorFor } from './reader.js';
import { decodeUtf8 } from './text.js';

/**
 * True when the text has a run of 16 or more digits. Only then can JSON.parse round an integer
 * (every integer of up to 15 digits is below 2^53), so other lines skip parseJsonExact, whose own
 * check (a regular expression with a lookbehind) costs more than the parse on a 400-byte line.
 */
function mayHoldLongInteger(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++run >= 16) return true;
    } else run = 0;
  }
  return false;
}

/** Parses one line exactly; on a syntax error, parseJsonExact gives the precise offset. */
function parseLine(text: string): unknown {
  if (!mayHoldLongInteger(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // fall through for parseJsonExact's message
    }
  }
  return parseJsonExact(text);
}

/** Reads NDJSON bytes into validated batches of `context.batchRows` lines read. */
export async function* readNdjson(chunks: AsyncIterable<Uint8Array>, context: ReaderContext): AsyncGenerator<FileBatch> {
  let validator: FileValidator | undefined;
  let early: (Rejection & { slot?: bigint })[] = []; // rejected lines before the first object told the table
  let values: unknown[] = [];
  let names: readonly string[] = [];
  let line = 0;
  const begin = (columns: string[]) => {
    validator = validatorFor(context, columns);
    names = validator.columns.map((column) => column.name);
    values = new Array(names.length);
  };
  if (context.table) begin([]);

  const reject = (row: number, message: string, slot?: bigint) => {
    if (validator) validator.reject(row, '', message, slot);
    else early.push({ source: context.source, row, field: '', message, slot });
  };

  const handle = (text: string, row: number, terminated: boolean) => {
    if (text.trim() === '') return;
    let record: unknown;
    try {
      record = parseLine(text);
    } catch (error) {
      const reason = (error as Error).message;
      const slot = /"slot"\s*:\s*"?(\d+)[^\d]/.exec(text)?.[1]; // whole: something follows its digits
      reject(row, terminated ? `invalid JSON: ${reason}` : `truncated last line (no final newline): ${reason}`, slot ? BigInt(slot) : undefined);
      if (!terminated) truncatedAt = row;
      return;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      reject(row, `expected a JSON object, found ${Array.isArray(record) ? 'an array' : JSON.stringify(record)}`);
      return;
    }
    const object = record as Record<string, unknown>;
    if (!validator) {
      begin(Object.keys(object));
      for (const rejection of early) validator!.reject(rejection.row, rejection.field, rejection.message, rejection.slot);
      early = [];
    }
    for (let j = 0; j < names.length; j++) values[j] = object[names[j]]; // no column name is an Object.prototype key
    validator!.add(row, values);
  };

  let truncatedAt: number | undefined;
  let carry = '';
  for await (const piece of decodeUtf8(chunks)) {
    const text = carry + piece;
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      handle(text.slice(start, end), ++line, true);
      start = newline + 1;
      if (validator && validator.read >= context.batchRows) yield validator.take();
    }
    carry = text.slice(start);
  }
  if (carry !== '') handle(carry, ++line, false);
  if (!validator && early.length > 0) {
    const first = early[0];
    throw new Error(`${context.source}: no JSON object to tell the table from; line ${first.row}: ${first.message}`);
  }
  if (truncatedAt !== undefined) validator?.truncated(truncatedAt);
  if (validator && validator.read > 0) yield validator.take();
}
