/**
 * A dictionary of account keys: each distinct base58 key gets a dense id, so that a transaction's
 * accounts are kept as a span of u32 ids rather than a string each. Keys are interned straight from
 * the UTF-8 bytes of an Arrow column (no JS string per occurrence): an open-addressing table over a
 * byte arena, FNV-1a hashed.
 *
 * A dictionary only grows. The resident segments share one; when retention has left most of its
 * keys unused they move to a compacted copy with new id arrays (transaction-segments.ts), so ids
 * never change under a segment or a query that holds them.
 */

const EMPTY = -1;
const encoder = new TextEncoder();

/** FNV-1a over bytes [from, to). */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

export class AccountKeys {
  /** Key bytes, one key after another; key `id` is arena[starts[id]..starts[id + 1]). */
  #arena = new Uint8Array(1 << 16);
  #starts = new Uint32Array(1 << 12);
  #size = 0;
  /** Open addressing: id per slot, EMPTY where free; at most half full. */
  #slots = new Int32Array(1 << 12).fill(EMPTY);

  /** Distinct keys held. */
  get size(): number {
    return this.#size;
  }

  /** Bytes held (arena, offsets and table): what the dictionary costs. */
  get bytes(): number {
    return this.#arena.byteLength + this.#starts.byteLength + this.#slots.byteLength;
  }

  /** The id of the key in bytes [from, to), added if new. */
  intern(bytes: Uint8Array, from: number, to: number): number {
    const mask = this.#slots.length - 1;
    let slot = hashBytes(bytes, from, to) & mask;
    for (;;) {
      const id = this.#slots[slot]!;
      if (id === EMPTY) break;
      if (this.#equals(id, bytes, from, to)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.#append(bytes, from, to);
    this.#slots[slot] = id;
    if (this.#size * 2 > this.#slots.length) this.#rehash();
    return id;
  }

  /** The id of `key`, or undefined when the dictionary has never seen it. */
  find(key: string): number | undefined {
    const bytes = encoder.encode(key);
    const mask = this.#slots.length - 1;
    for (let slot = hashBytes(bytes, 0, bytes.length) & mask; ; slot = (slot + 1) & mask) {
      const id = this.#slots[slot]!;
      if (id === EMPTY) return undefined;
      if (this.#equals(id, bytes, 0, bytes.length)) return id;
    }
  }

  /** The id here of key `id` of `other`, added if new (bytes copied, no string made). */
  internFrom(other: AccountKeys, id: number): number {
    return this.intern(other.#arena, other.#starts[id]!, other.#starts[id + 1]!);
  }

  /** The key of `id`. */
  keyOf(id: number): string {
    let text = '';
    for (let i = this.#starts[id]!; i < this.#starts[id + 1]!; i++) text += String.fromCharCode(this.#arena[i]!);
    return text;
  }

  #equals(id: number, bytes: Uint8Array, from: number, to: number): boolean {
    const start = this.#starts[id]!;
    if (this.#starts[id + 1]! - start !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (this.#arena[start + i] !== bytes[from + i]) return false;
    return true;
  }

  #append(bytes: Uint8Array, from: number, to: number): number {
    const id = this.#size++;
    if (this.#size + 1 > this.#starts.length) {
      const starts = new Uint32Array(this.#starts.length * 2);
      starts.set(this.#starts);
      this.#starts = starts;
    }
    const at = this.#starts[id]!;
    if (at + (to - from) > this.#arena.length) {
      const arena = new Uint8Array(Math.max(this.#arena.length * 2, at + (to - from)));
      arena.set(this.#arena);
      this.#arena = arena;
    }
    this.#arena.set(bytes.subarray(from, to), at);
    this.#starts[id + 1] = at + (to - from);
    return id;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let id = 0; id < this.#size; id++) {
      let slot = hashBytes(this.#arena, this.#starts[id]!, this.#starts[id + 1]!) & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.#slots = slots;
  }
}
