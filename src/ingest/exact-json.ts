/**
 * JSON parsing that keeps integers exact (DESIGN.md 3): getBlock responses and NDJSON dumps carry
 * u64 values (lamport balances, nanosecond times) as JSON numbers above 2^53, which JSON.parse
 * would round. Integer tokens that are not safe integers become `bigint`; everything else is as
 * JSON.parse gives it.
 */

/** Error with the 0-based character offset at which the text stopped being valid JSON. */
export class JsonSyntaxError extends SyntaxError {
  constructor(message: string, readonly offset: number) {
    super(`${message} at character ${offset}`);
  }
}

// Fast path: text without any integer token of 16+ digits cannot lose precision in JSON.parse.
const LONG_INTEGER = /(?<![.\deE+-])-?\d{16,}(?![.\deE])/;

/** Parses JSON text; integers beyond Number.MAX_SAFE_INTEGER come back as bigint. */
export function parseJsonExact(text: string): unknown {
  if (!LONG_INTEGER.test(text)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      // fall through to the exact parser for a precise offset
    }
  }
  return new ExactParser(text).parseDocument();
}

class ExactParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const value = this.value();
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail('unexpected trailing text');
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(this.pos >= this.text.length ? 'unexpected end of JSON' : message, this.pos);
  }

  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      this.pos++;
    }
  }

  private value(): unknown {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail('unexpected character');
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail('expected a property name');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      out[key] = this.value();
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === '}') return out;
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === ']') return out;
      if (c !== ',') {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  private string(): string {
    const start = this.pos;
    const t = this.text;
    let i = start + 1;
    let escaped = false;
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 92) {
        escaped = true;
        i++;
      } else if (c === 34) break;
      else if (c < 32) {
        this.pos = i;
        this.fail('control character in string');
      }
    }
    if (i >= t.length) {
      this.pos = t.length;
      this.fail('unterminated string');
    }
    this.pos = i + 1;
    const raw = t.slice(start, i + 1);
    if (!escaped) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      this.pos = start;
      return this.fail('bad escape in string');
    }
  }

  private number(): number | bigint {
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.pos;
    const found = m.exec(this.text);
    if (!found) this.fail('bad number');
    this.pos = m.lastIndex;
    const token = found![0];
    if (found![1] === undefined && found![2] === undefined) {
      const n = Number(token);
      return Number.isSafeInteger(n) ? n : BigInt(token);
    }
    return Number(token);
  }
}
