/** Splits a getBlock dump into JSON documents: one document, a JSON array of them, or NDJSON. */
import { JsonSyntaxError, parseJsonExact } from '../exact-json.js';

/** One document of a file, or why its text is not JSON. `row` is 1-based (line, or array element). */
export type SourceDocument =
  | { readonly row: number; readonly value: unknown; readonly inArray: boolean }
  | { readonly row: number; readonly error: string };

/**
 * Parses `text` exactly (u64 beyond 2^53 as bigint). A text that is one JSON value gives one
 * document (each element if it is an array); otherwise, if its first line is a complete JSON value,
 * it is NDJSON and each non-empty line is a document; otherwise it is one broken document, reported
 * at the line where parsing stopped.
 */
export function splitDocuments(text: string): SourceDocument[] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return [{ row: 1, error: 'empty file' }];
  let whole: unknown;
  let wholeError: JsonSyntaxError | undefined;
  try {
    whole = parseJsonExact(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    wholeError = error;
  }
  if (wholeError === undefined) {
    return Array.isArray(whole) ? whole.map((value, i) => ({ row: i + 1, value, inArray: true })) : [{ row: 1, value: whole, inArray: false }];
  }

  const lines = text.split('\n');
  const firstLine = lines.findIndex((l) => l.trim() !== '');
  if (lines.filter((l) => l.trim() !== '').length > 1 && parses(lines[firstLine])) {
    const out: SourceDocument[] = [];
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        out.push({ row: i + 1, value: parseJsonExact(line), inArray: false });
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        out.push({ row: i + 1, error: jsonMessage(error, line.length) });
      }
    });
    return out;
  }
  return [{ row: lineAt(text, wholeError.offset), error: jsonMessage(wholeError, text.length) }];
}

function parses(line: string): boolean {
  try {
    parseJsonExact(line);
    return true;
  } catch {
    return false;
  }
}

function jsonMessage(error: JsonSyntaxError, length: number): string {
  const truncated = error.offset >= length ? ' (the text looks truncated)' : '';
  return `invalid JSON: ${error.message}${truncated}`;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
