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
import type { Vector } from 'apache-arrow';
import { checkStatus } from '../kernels/instance.js';
import type { Utf8Values } from '../ingest/utf8-values.js';
import type { Steps } from '../platform/event-loop.js';
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

/**
 * Keys interned per kernel call, a step of the serving thread's ingest: 2,048 took over a millisecond
 * where the table's probes miss the cache, which a request arriving meanwhile waited for.
 */
export const KEY_BATCH = 512;
/** What `find` answers for a key the dictionary has never seen, as an id. */
const NO_ID = 0xffff_ffff;

let compiled: WebAssembly.Module | undefined;
/** Key texts a dictionary keeps made (bounded: cleared whole when full). */
const KEY_TEXTS = 1 << 14;
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

  /** The ids of every string of a non-null Utf8 column, in row order, added if new: a kernel batch a step. */
  *internRows(vector: Vector): Steps<Uint32Array> {
    const out = new Uint32Array(vector.length);
    let at = 0;
    for (const data of vector.data) {
      yield* this.#internAll(data.values as Uint8Array, data.valueOffsets as Int32Array, data.length, out, at);
      at += data.length;
    }
    return out;
  }

  /** The ids of `values`' strings, added if new: a kernel batch a step. */
  *internValues(values: Utf8Values): Steps<Uint32Array> {
    const out = new Uint32Array(values.offsets.length - 1);
    yield* this.#internAll(values.bytes, values.offsets, out.length, out, 0);
    return out;
  }

  *#internAll(bytes: Uint8Array, offsets: Int32Array, n: number, out: Uint32Array, at: number): Steps<void> {
    for (let from = 0; from < n; from += KEY_BATCH) {
      this.internBatch(bytes, offsets, from, Math.min(n, from + KEY_BATCH), out, at + from);
      yield;
    }
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

  /**
   * Texts of keys asked lately (ids never change in a dictionary: compacting makes a new one). A
   * streamed top list answers the same 100 signers and programs after every block, and a key's text
   * cost ~2 us to make (two views of the memory and a string from its bytes).
   */
  readonly #texts = new Map<number, string>();

  /** The key of `id`. */
  keyOf(id: number): string {
    let text = this.#texts.get(id);
    if (text === undefined) {
      const { starts, arena } = this.#held();
      text = String.fromCharCode.apply(null, arena.subarray(starts[id]!, starts[id + 1]!) as unknown as number[]);
      if (this.#texts.size >= KEY_TEXTS) this.#texts.clear();
      this.#texts.set(id, text);
    }
    return text;
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

/** Dictionaries smaller than this are never compacted (not worth a pass over every id). */
const COMPACT_FROM = 1 << 16;

/** Maps ids of one dictionary to ids of another (new arrays: a reader holding the old ones keeps them). */
export type IdMove = (ids: Uint32Array) => Uint32Array;

/** The ids of a dictionary of `size` keys that `lists` use, marked, and how many they are. */
function usedIds(size: number, lists: Iterable<Uint32Array>): { used: Uint8Array; count: number } {
  const used = new Uint8Array(size);
  let count = 0;
  for (const ids of lists) for (const id of ids) if (!used[id]) used[id] = 1, count++;
  return { used, count };
}

/** The `used` keys of `from` added to `to`, in id order: the move of their ids. */
function moveKeys(from: AccountKeys, to: AccountKeys, { used, count }: { used: Uint8Array; count: number }): IdMove {
  const kept = new Uint32Array(count);
  for (let id = 0, j = 0; id < used.length; id++) if (used[id]) kept[j++] = id;
  const translate = new Uint32Array(used.length);
  to.internFrom(from, kept).forEach((id, j) => (translate[kept[j]!] = id));
  return (ids) => ids.map((id) => translate[id]!);
}

/** The move of the ids `lists` hold from `from` to `to`, their keys added to `to` where new. */
export const keysMoved = (from: AccountKeys, to: AccountKeys, lists: Iterable<Uint32Array>): IdMove =>
  moveKeys(from, to, usedIds(from.size, lists));

/**
 * When a dictionary is worth compacting (a large one, under half of it used), kept by its owner
 * across prunes: counting the keys in use scans every id list held, so it is counted again only
 * once the dictionary holds twice the keys in use at the last count (before, no count can find it
 * worth compacting unless keys fell out of use; it then waits at most until the dictionary doubles
 * that count). A replay pruning once a minute of chain time scanned 15 minutes of id lists each
 * time: 1.9 s of the hour's replay.
 */
export class KeyCompaction {
  /** Keys in use at the last count. */
  #inUse = 0;

  /** A dictionary of only the keys of `keys` that `lists` use, when that is worth it, and the move of their ids; undefined otherwise. */
  compact(keys: AccountKeys, lists: () => Iterable<Uint32Array>): { keys: AccountKeys; move: IdMove } | undefined {
    if (keys.size < COMPACT_FROM || keys.size < 2 * this.#inUse) return undefined;
    const used = usedIds(keys.size, lists());
    this.#inUse = used.count;
    if (used.count * 2 > keys.size) return undefined;
    const compacted = new AccountKeys();
    return { keys: compacted, move: moveKeys(keys, compacted, used) };
  }
}
