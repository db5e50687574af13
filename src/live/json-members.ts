/**
 * Where each top-level member's value lies in the text of a JSON object, found without parsing the
 * values: a getBlock answer is megabytes, and its `result` text goes to the decoder as it is (the
 * decoder parses it once, exactly). The values are not checked; the decoder does that.
 */

/** A member value's text is text.slice(start, end). */
export interface Span {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  return i;
}

/** The index after the string starting at `i` (a quote), or -1 if it does not end. */
function stringEnd(text: string, i: number): number {
  for (let from = i + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index after the value starting at `i`, or -1 if it does not end. */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        j = stringEnd(text, j) - 1;
        if (j < 0) return -1;
      }
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return j + 1;
    }
    return -1;
  }
  let j = i;
  while (j < text.length && !',}] \t\n\r'.includes(text[j]!)) j++;
  return j > i ? j : -1;
}

/** The spans of the members of the JSON object `text`, by key; undefined when it is not one (truncated text). */
export function memberSpans(text: string): Map<string, Span> | undefined {
  const spans = new Map<string, Span>();
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipSpace(text, i + 1);
  if (text[i] === '}') return skipSpace(text, i + 1) === text.length ? spans : undefined;
  for (;;) {
    if (text[i] !== '"') return undefined;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return undefined;
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return undefined;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    if (end < 0) return undefined;
    spans.set(key, { start, end });
    i = skipSpace(text, end);
    if (text[i] === '}') return skipSpace(text, i + 1) === text.length ? spans : undefined;
    if (text[i] !== ',') return undefined;
    i = skipSpace(text, i + 1);
  }
}
