/**
 * The slot of the first block in a raw getBlock file, read from the file's first bytes without
 * parsing the file: a folder of raw blocks is loaded in slot order, whatever the file names are.
 * The scan walks the JSON structure (skipping values without building them) down to the first
 * block: the `{slot, block}` wrapper's slot, else the block's parentSlot + 1 (on chain, a block's
 * parent is the block before it, so parentSlot + 1 orders blocks as their slots do).
 */

/** What the first bytes told: a slot, nothing (no slot before the first block's end), or "read more". */
export type SlotPeek = { slot: bigint | undefined } | 'more';

class NeedMore extends Error {}

/**
 * Peeks at `text`, the beginning of a file (`complete` when it is the whole file). A JSON-RPC
 * envelope, a JSON array (its first element) and NDJSON (its first line) are looked through.
 */
export function peekBlockSlot(text: string, complete: boolean): SlotPeek {
  const scan = new Scanner(text, complete);
  try {
    scan.space();
    if (scan.peek() === '[') {
      scan.take();
      scan.space();
    }
    return { slot: scan.peek() === '{' ? scan.document() : undefined };
  } catch (error) {
    if (error instanceof NeedMore) return complete ? { slot: undefined } : 'more';
    throw error;
  }
}

const DIGITS = /^\d+$/;

class Scanner {
  private at = 0;

  constructor(private readonly text: string, private readonly complete: boolean) {}

  peek(): string {
    if (this.at >= this.text.length) throw new NeedMore();
    return this.text[this.at];
  }

  take(): string {
    const c = this.peek();
    this.at++;
    return c;
  }

  space(): void {
    while (this.at < this.text.length && ' \t\r\n\ufeff'.includes(this.text[this.at])) this.at++;
  }

  /** An object at the cursor: an envelope, a wrapper or a block; its slot as far as it tells. */
  document(): bigint | undefined {
    this.take(); // {
    for (;;) {
      this.space();
      if (this.peek() === '}') return undefined;
      if (this.peek() === ',') {
        this.take();
        continue;
      }
      const key = this.string();
      this.space();
      if (this.take() !== ':') return undefined;
      this.space();
      if (key === 'result' && this.peek() === '{') return this.document();
      if (key === 'slot') return this.integer();
      if (key === 'parentSlot') {
        const parent = this.integer();
        return parent === undefined ? undefined : parent + 1n;
      }
      // a wrapper may put its slot after the block: skip the block and read on
      this.value();
    }
  }

  /** A JSON string at the cursor (escapes kept as they are: keys are compared to plain names). */
  string(): string {
    if (this.take() !== '"') throw new NeedMore();
    const start = this.at;
    for (;;) {
      const c = this.take();
      if (c === '\\') this.take();
      else if (c === '"') return this.text.slice(start, this.at - 1);
    }
  }

  /** An unsigned integer, bare or quoted; undefined for anything else. */
  integer(): bigint | undefined {
    const quoted = this.peek() === '"';
    const start = this.at;
    this.value();
    const raw = this.text.slice(quoted ? start + 1 : start, quoted ? this.at - 1 : this.at).trim();
    return DIGITS.test(raw) ? BigInt(raw) : undefined;
  }

  /** Skips one value at the cursor. */
  value(): void {
    const c = this.peek();
    if (c === '"') {
      this.string();
      return;
    }
    if (c === '{' || c === '[') {
      let depth = 0;
      for (;;) {
        const d = this.take();
        if (d === '"') {
          this.at--;
          this.string();
        } else if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') {
          if (--depth === 0) return;
        }
      }
    }
    while (this.at < this.text.length && !',}] \t\r\n'.includes(this.text[this.at])) this.at++;
    if (this.at >= this.text.length && !this.complete) throw new NeedMore(); // a number may go on
  }
}
