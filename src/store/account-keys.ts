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

/**
 * FNV-1a over the length and at most HASHED bytes from the middle of a key: base58 text of random
 * 32 bytes, whose middle is as random as it gets (vanity keys share their start or end: "So111...",
 * "...pump"). Equal hashes are told apart by comparing every byte.
 */
const HASHED = 16;
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = Math.imul(0x811c9dc5 ^ (to - from), 0x01000193);
  const start = to - from > HASHED + 8 ? from + 8 : from;
  const end = Math.min(to, start + HASHED);
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Ints per slot of the table: id, the key's start in the arena, its length, its hash. */
const SLOT = 4;

export class AccountKeys {
  /** Key bytes, one key after another; key `id` is arena[starts[id]..starts[id + 1]). */
  #arena = new Uint8Array(1 << 16);
  /** The arena read 32 bits at a time (comparing a key reads 11 words of it, not 44 bytes). */
  #arenaWords = new DataView(this.#arena.buffer);
  #starts = new Uint32Array(1 << 12);
  #size = 0;
  /**
   * Open addressing, at most half full: per slot the id (EMPTY where free) and, beside it, where its
   * bytes are, their length and the hash, so that a probe reads one line of the table and the key's
   * bytes only when the hashes agree.
   */
  #slots = AccountKeys.#table(1 << 12);

  static #table(slots: number): Int32Array {
    const table = new Int32Array(slots * SLOT);
    for (let i = 0; i < table.length; i += SLOT) table[i] = EMPTY;
    return table;
  }

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
    const hash = hashBytes(bytes, from, to) | 0;
    const slot = this.#probe(bytes, from, to, hash);
    const found = this.#slots[slot * SLOT]!;
    if (found !== EMPTY) return found;
    const id = this.#append(bytes, from, to);
    this.#place(this.#slots, slot, id, hash);
    if (this.#size * 2 > this.#slots.length / SLOT) this.#rehash();
    return id;
  }

  /** The id of `key`, or undefined when the dictionary has never seen it. */
  find(key: string): number | undefined {
    const bytes = encoder.encode(key);
    const id = this.#slots[this.#probe(bytes, 0, bytes.length, hashBytes(bytes, 0, bytes.length) | 0) * SLOT]!;
    return id === EMPTY ? undefined : id;
  }

  /** The slot holding the key in bytes [from, to), or the free slot where it would go. */
  #probe(bytes: Uint8Array, from: number, to: number, hash: number): number {
    const slots = this.#slots;
    const mask = slots.length / SLOT - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slot * SLOT;
      if (slots[at] === EMPTY || (slots[at + 3] === hash && this.#equals(slots[at + 1]!, slots[at + 2]!, bytes, from, to))) return slot;
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

  #equals(start: number, length: number, bytes: Uint8Array, from: number, to: number): boolean {
    if (length !== to - from) return false;
    // the input's words are assembled from its bytes: a view of them kept between calls would keep its whole buffer alive
    const arena = this.#arenaWords;
    let i = 0;
    for (let k = from; i + 4 <= length; i += 4, k += 4) {
      if (arena.getUint32(start + i, true) !== ((bytes[k]! | (bytes[k + 1]! << 8) | (bytes[k + 2]! << 16) | (bytes[k + 3]! << 24)) >>> 0)) return false;
    }
    for (; i < length; i++) if (this.#arena[start + i] !== bytes[from + i]) return false;
    return true;
  }

  /** Fills table slot `slot` with key `id`. */
  #place(slots: Int32Array, slot: number, id: number, hash: number): void {
    const at = slot * SLOT;
    slots[at] = id;
    slots[at + 1] = this.#starts[id]!;
    slots[at + 2] = this.#starts[id + 1]! - this.#starts[id]!;
    slots[at + 3] = hash;
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
      this.#arenaWords = new DataView(arena.buffer);
    }
    this.#arena.set(bytes.subarray(from, to), at);
    this.#starts[id + 1] = at + (to - from);
    return id;
  }

  #rehash(): void {
    const slots = AccountKeys.#table((this.#slots.length / SLOT) * 2);
    const mask = slots.length / SLOT - 1;
    for (let id = 0; id < this.#size; id++) {
      const hash = hashBytes(this.#arena, this.#starts[id]!, this.#starts[id + 1]!) | 0;
      let slot = hash & mask;
      while (slots[slot * SLOT] !== EMPTY) slot = (slot + 1) & mask;
      this.#place(slots, slot, id, hash);
    }
    this.#slots = slots;
  }
}
