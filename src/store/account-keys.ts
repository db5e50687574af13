/**
 * A dictionary of account keys: each distinct base58 key gets a dense id, so that a transaction's
 * accounts are kept as a span of u32 ids rather than a string each. Keys are interned straight from
 * the UTF-8 bytes of an Arrow column (no JS string per occurrence), a batch at a time, by the keys
 * kernel (assembly/keys: an open-addressing table over a byte arena in its own WebAssembly
 * memory, keys compared and hashed 8 bytes at a time). Interning a load's keys was the serving
 * thread's largest cost as JavaScript, whose byte-at-a-time loads cost as much as the table's
 * cache misses.
 *
 * A dictionary only grows. The resident segments share one; when retention has left most of its
 * keys unused they move to a compacted copy with new id arrays (transaction-segments.ts), so ids
 * never change under a segment or a query that holds them. Each dictionary is an instance of the
 * module (one compiled module, an instance and its memory per dictionary), freed with it.
 */
import { checkStatus } from '../kernels/instance.js';
import { copyStrings, type StringInputKernel } from '../kernels/string-input.js';
import { wasmBytes } from '../kernels/keys.wasm.generated.js';

/** The raw exports of build/keys.wasm. */
interface KeyKernelExports extends StringInputKernel {
  lookup(keys: number, add: number): number;
  idsPtr(): number;
  startsPtr(): number;
  arenaPtr(): number;
  keyCount(): number;
  heldBytes(): number;
}

/** Keys interned per kernel call: about a quarter millisecond of work (a slice of the serving thread's ingest). */
export const KEY_BATCH = 2048;
/** What `find` answers for a key the dictionary has never seen, as an id. */
const NO_ID = 0xffff_ffff;

let compiled: WebAssembly.Module | undefined;
const encoder = new TextEncoder();

export class AccountKeys {
  readonly #k = new WebAssembly.Instance((compiled ??= new WebAssembly.Module(wasmBytes())), {}).exports as unknown as KeyKernelExports;

  /** Distinct keys held. */
  get size(): number {
    return this.#k.keyCount();
  }

  /** Bytes held (table, offsets and arena): what the dictionary costs. */
  get bytes(): number {
    return this.#k.heldBytes();
  }

  /**
   * Interns keys from..to of a string column (its value bytes and offsets; at most KEY_BATCH
   * keys) into `out` from `at`: each key's id, added if new.
   */
  internBatch(bytes: Uint8Array, offsets: Int32Array, from: number, to: number, out: Uint32Array, at: number): void {
    this.#lookup(bytes, offsets, from, to, true);
    out.set(new Uint32Array(this.#k.memory.buffer, this.#k.idsPtr(), to - from), at);
  }

  /** The id of `key`, or undefined when the dictionary has never seen it. */
  find(key: string): number | undefined {
    const bytes = encoder.encode(key);
    this.#lookup(bytes, Int32Array.of(0, bytes.length), 0, 1, false);
    const id = new Uint32Array(this.#k.memory.buffer, this.#k.idsPtr(), 1)[0]!;
    return id === NO_ID ? undefined : id;
  }

  /** The ids here of keys `ids` of `other`, added if new (their bytes copied, no string made). */
  internFrom(other: AccountKeys, ids: Uint32Array): Uint32Array {
    const out = new Uint32Array(ids.length);
    const { starts, arena } = other.#held();
    for (let at = 0; at < ids.length; at += KEY_BATCH) {
      const batch = ids.subarray(at, at + KEY_BATCH);
      const offsets = new Int32Array(batch.length + 1);
      batch.forEach((id, j) => (offsets[j + 1] = offsets[j]! + starts[id + 1]! - starts[id]!));
      const bytes = new Uint8Array(offsets[batch.length]!);
      batch.forEach((id, j) => bytes.set(arena.subarray(starts[id]!, starts[id + 1]!), offsets[j]!));
      this.internBatch(bytes, offsets, 0, batch.length, out, at);
    }
    return out;
  }

  /** The key of `id`. */
  keyOf(id: number): string {
    const { starts, arena } = this.#held();
    return String.fromCharCode(...arena.subarray(starts[id]!, starts[id + 1]!));
  }

  /** Views of the keys held: key id is arena[starts[id]..starts[id + 1]) (valid until a call that may grow the memory). */
  #held(): { starts: Uint32Array; arena: Uint8Array } {
    const k = this.#k;
    const starts = new Uint32Array(k.memory.buffer, k.startsPtr(), k.keyCount() + 1);
    return { starts, arena: new Uint8Array(k.memory.buffer, k.arenaPtr(), starts[k.keyCount()]!) };
  }

  /** Copies keys from..to of a string column into the kernel's input and looks them up (`add`: adding new ones). */
  #lookup(bytes: Uint8Array, offsets: Int32Array, from: number, to: number, add: boolean): void {
    copyStrings('keys', this.#k, bytes, offsets, from, to);
    checkStatus('keys.lookup', this.#k.lookup(to - from, add ? 1 : 0));
  }
}
