/**
 * CSV reader (RFC 4180): comma-separated fields, double-quoted fields that may hold commas, newlines
 * and doubled quotes, LF or CRLF line ends, a header row of column names. An unquoted empty field is
 * null; a quoted empty field ("") is the empty string. Blank lines are skipped. Rows are named by the
 * line their record starts on (the header is line 1).
 *
 * A quoted field may run across a line break only when the record it makes is well-formed: the quote
 * closes, a comma or the line end follows it, the record has the header's number of fields, and it
 * ends within MAX_MULTILINE_RECORD characters of its start. Otherwise the quote that crossed the line
 * break is unbalanced: the line the record starts on is rejected alone (naming the field where the
 * quote opened) and reading resumes on the next line, so one stray quote never swallows the rest of
 * the file, and memory stays bounded.
 */
import type { FileBatch, FileValidator, ReaderContext } from './reader.js';
import { slotOf, validatorFor } from './reader.js';
import { decodeUtf8 } from './text.js';

/** The longest record (in characters) whose quoted field may run across line breaks. */
export const MAX_MULTILINE_RECORD = 1 << 20;

/** One CSV record: its fields, the line it starts on, and why it is malformed, if it is. */
export interface CsvRecord {
  fields: (string | null)[];
  line: number;
  /** False for a last record without a line end. */
  terminated: boolean;
  error?: string;
  /**
   * For an unbalanced quote: the 0-based index of the field it opens and its 1-based character
   * position on the line (`fields` holds the fields before it).
   */
  unbalanced?: { field: number; column: number };
}

/** A quoted field that runs across the line break ending its record's first line. */
interface Crossing {
  /** 0-based index of the field. */
  field: number;
  /** 1-based character position of its opening quote on the line. */
  column: number;
  /** The fields before it, all on the first line. */
  before: (string | null)[];
}

/** Splits CSV text, fed in pieces, into records. The first record is the header and sets the number of fields. */
export class CsvSplitter {
  private buffer = '';
  private line = 1;
  /** The header's number of fields, once read: a record over several lines must have as many. */
  private width: number | undefined;
  /** Set by `quoted` when a quoted field of the record crosses the end of its first line. */
  private crossing: Crossing | undefined;

  /** Records completed by this piece of text. */
  push(text: string): CsvRecord[] {
    this.buffer += text;
    return this.drain(false);
  }

  /** The records left at the end of the input (a last line without a line end). */
  end(): CsvRecord[] {
    return this.drain(true);
  }

  private drain(final: boolean): CsvRecord[] {
    const records: CsvRecord[] = [];
    const text = this.buffer;
    let at = 0;
    while (at < text.length) {
      const newline = text.indexOf('\n', at);
      if (newline < 0 && !final) break;
      const lineEnd = newline < 0 ? text.length : newline;
      const content = text.slice(at, lineEnd > at && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd);
      if (!content.includes('"')) {
        if (content !== '') {
          records.push({ fields: content.split(',').map((f) => (f === '' ? null : f)), line: this.line, terminated: newline >= 0 });
          this.width ??= records[records.length - 1].fields.length;
        }
        this.line++;
        at = lineEnd + 1;
        continue;
      }
      this.crossing = undefined;
      const parsed = this.quoted(text, at, final);
      const crossing = this.crossing as Crossing | undefined;
      if (crossing && newline >= 0 && (parsed === undefined
        ? text.length - at > MAX_MULTILINE_RECORD
        : parsed.record.error !== undefined || parsed.next - at > MAX_MULTILINE_RECORD
          || (this.width !== undefined && parsed.record.fields.length !== this.width))) {
        // the quote that crossed the line break is unbalanced: the first line is the record, alone
        records.push({
          fields: crossing.before, line: this.line, terminated: true, unbalanced: { field: crossing.field, column: crossing.column },
          error: unbalancedQuote(crossing.field, crossing.column, undefined),
        });
        this.line++;
        at = newline + 1;
        continue;
      }
      if (!parsed) break; // a quoted field runs past the text so far
      records.push(parsed.record);
      this.width ??= parsed.record.fields.length;
      this.line += parsed.lines;
      at = parsed.next;
    }
    this.buffer = text.slice(Math.min(at, text.length));
    return records;
  }

  /**
   * One record that has quotes, from `at`; undefined when it is not complete yet. Sets `crossing` when
   * a quoted field runs across the end of the record's first line.
   */
  private quoted(text: string, at: number, final: boolean): { record: CsvRecord; next: number; lines: number } | undefined {
    const fields: (string | null)[] = [];
    const line = this.line;
    let i = at;
    let lines = 1;
    for (;;) {
      if (text.charCodeAt(i) === 34) {
        const open = i;
        const newline = this.crossing ? -1 : text.indexOf('\n', open + 1);
        let value = '';
        let from = i + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (newline >= 0 && !this.crossing && (quote < 0 || newline < quote)) {
            this.crossing = { field: fields.length, column: open - at + 1, before: fields.slice() };
          }
          if (quote < 0 || (quote === text.length - 1 && !final)) {
            if (!final) return undefined;
            const rest = text.slice(i);
            const newlines = rest.split('\n').length - 1;
            return {
              record: { fields, line, terminated: false, error: 'unterminated quoted field at the end of the file (truncated?)' },
              next: text.length, lines: newlines + 1,
            };
          }
          value += text.slice(from, quote);
          if (text.charCodeAt(quote + 1) === 34) {
            value += '"';
            from = quote + 2;
            continue;
          }
          i = quote + 1;
          break;
        }
        for (let k = value.indexOf('\n'); k >= 0; k = value.indexOf('\n', k + 1)) lines++;
        fields.push(value);
      } else {
        let end = i;
        while (end < text.length) {
          const c = text.charCodeAt(end);
          if (c === 44 || c === 10 || (c === 13 && text.charCodeAt(end + 1) === 10)) break;
          end++;
        }
        if (end === text.length && !final) return undefined;
        const value = text.slice(i, end);
        fields.push(value === '' ? null : value);
        i = end;
      }
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        continue;
      }
      if (c === 13 && i + 1 === text.length && !final) return undefined;
      if (i >= text.length) return { record: { fields, line, terminated: false }, next: i, lines };
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) {
        return { record: { fields, line, terminated: true }, next: i + (c === 13 ? 2 : 1), lines };
      }
      // text after a closing quote: malformed; skip to the end of this line
      const newline = text.indexOf('\n', i);
      if (newline < 0 && !final) return undefined;
      const next = newline < 0 ? text.length : newline + 1;
      return { record: { fields, line, terminated: newline >= 0, error: `unexpected text after a closing quote: ${JSON.stringify(text.slice(i, Math.min(i + 20, next)).trim())}` }, next, lines };
    }
  }
}

/** The message of an unbalanced quote: the field it opens (and the header's name for it) and where. */
function unbalancedQuote(field: number, column: number, name: string | undefined): string {
  return `unbalanced quote: field ${field + 1}${name ? ` (${name})` : ''} opens a quote at character ${column} that does not `
    + 'close on its line; the line is rejected alone and reading resumes on the next line';
}

/** Reads CSV bytes (header first) into validated batches of `context.batchRows` records read. */
export async function* readCsv(chunks: AsyncIterable<Uint8Array>, context: ReaderContext): AsyncGenerator<FileBatch> {
  const splitter = new CsvSplitter();
  let header: string[] | undefined;
  let validator: FileValidator | undefined;
  let positions: number[] = [];
  let values: unknown[] = [];
  let slotAt = -1;

  /** The slot of a malformed record, when its slot field is surely whole and in place. */
  function slotOfBroken(record: CsvRecord): bigint | undefined {
    const complete = record.terminated ? record.fields.length : record.fields.length - 1; // the last field of a cut record may be cut
    return slotAt >= 0 && slotAt < complete && record.fields.length <= header!.length ? slotOf(record.fields[slotAt]) : undefined;
  }

  function handle(record: CsvRecord): void {
    if (!header) {
      if (record.error) throw new Error(`${context.source}: line ${record.line}: bad header: ${record.error}`);
      header = record.fields.map((name) => (name ?? '').trim());
      validator = validatorFor(context, header);
      positions = validator.columns.map((column) => header!.indexOf(column.name));
      slotAt = header.indexOf('slot');
      values = new Array(positions.length);
      return;
    }
    const v = validator!;
    if (record.error || record.fields.length !== header.length) {
      const { unbalanced } = record;
      const field = unbalanced ? header[unbalanced.field] ?? '' : '';
      const message = unbalanced
        ? unbalancedQuote(unbalanced.field, unbalanced.column, field)
        : record.error ?? `expected ${header.length} fields, found ${record.fields.length}${record.terminated ? '' : ' (truncated last line?)'}`;
      v.reject(record.line, field, message, slotOfBroken(record));
      if (!record.terminated) v.truncated(record.line);
      return;
    }
    for (let j = 0; j < positions.length; j++) values[j] = positions[j] < 0 ? undefined : record.fields[positions[j]];
    v.add(record.line, values);
  }

  for await (const piece of decodeUtf8(chunks)) {
    for (const record of splitter.push(piece)) {
      handle(record);
      if (validator && validator.read >= context.batchRows) yield validator.take();
    }
  }
  for (const record of splitter.end()) handle(record);
  if (validator && validator.read > 0) yield validator.take();
}
