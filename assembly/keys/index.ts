import { align16 as align, growTo } from '../grow';
import { Status } from '../status';

export { Status } from '../status';

/**
 * A dictionary of account keys (src/store/account-keys.ts): each distinct byte string gets a dense
 * id, in the order first seen. One instance holds one dictionary in its linear memory, laid out as
 *   INPUT: a batch's key bytes | its key offsets u32[keys + 1] | its ids u32[keys]
 *   TABLE: open addressing, at most half full: per slot id + 1 (0: free) u32 and the key's hash u32
 *   STARTS: u32[size + 1], key id is ARENA[starts[id]..starts[id + 1])
 *   ARENA: the key bytes, one after another
 * Regions only grow: `reserve` lays them out anew and moves them up (the last first), the table
 * rebuilt from the arena when it grows. Keys are hashed and compared 8 bytes at a time.
 */

const NO_ID: u32 = u32.MAX_VALUE;

let base: usize = 0;
let inputBytes: usize = 0; // capacities
let inputKeys: usize = 0;
let tableSlots: usize = 0;
let startsCapacity: usize = 0;
let arenaCapacity: usize = 0;
let bytesAt: usize = 0; // region starts
let offsetsAt: usize = 0;
let idsAt: usize = 0;
let tableAt: usize = 0;
let startsAt: usize = 0;
let arenaAt: usize = 0;
let size: u32 = 0;
let arenaUsed: usize = 0;

@inline function grown(have: usize, need: usize): usize {
  return need <= have ? have : max(need, have + (have >> 1));
}

/**
 * Makes room for a batch of `keys` keys of `bytes` bytes in all, each possibly new. Growing
 * detaches every JS view of the memory: re-create views after calling this.
 */
export function reserve(bytes: u32, keys: u32): Status {
  if (base == 0) {
    base = align(<usize>__heap_base);
    tableSlots = 1 << 12;
    startsCapacity = 1 << 12;
    arenaCapacity = 1 << 16;
  }
  const needSize = <usize>size + <usize>keys;
  let slots = tableSlots;
  while (needSize * 2 > slots) slots <<= 1;
  const nb = grown(inputBytes, <usize>bytes);
  const nk = grown(inputKeys, <usize>keys);
  const ns = grown(startsCapacity, needSize + 1);
  const na = grown(arenaCapacity, arenaUsed + <usize>bytes);
  if (nb == inputBytes && nk == inputKeys && slots == tableSlots && ns == startsCapacity && na == arenaCapacity && tableAt != 0) {
    return Status.OK;
  }
  // the new layout: every region at or above where it was, so moving the last first overwrites nothing unmoved
  const bAt = base;
  const oAt = align(bAt + nb);
  const iAt = align(oAt + (nk + 1) * 4);
  const tAt = align(iAt + nk * 4);
  const sAt = align(tAt + slots * 8);
  const aAt = align(sAt + ns * 4);
  const end = aAt + na;
  if (!growTo(<u64>end)) return Status.OUT_OF_MEMORY;
  const keepTable = tableAt != 0 && slots == tableSlots;
  if (tableAt != 0) {
    memory.copy(aAt, arenaAt, arenaUsed);
    memory.copy(sAt, startsAt, (<usize>size + 1) * 4);
    if (keepTable) memory.copy(tAt, tableAt, slots * 8);
  } else {
    store<u32>(sAt, 0);
  }
  inputBytes = nb;
  inputKeys = nk;
  startsCapacity = ns;
  arenaCapacity = na;
  bytesAt = bAt;
  offsetsAt = oAt;
  idsAt = iAt;
  arenaAt = aAt;
  startsAt = sAt;
  tableAt = tAt;
  tableSlots = slots;
  if (!keepTable) rehash();
  return Status.OK;
}

export function bytesPtr(): usize { return bytesAt; }
export function offsetsPtr(): usize { return offsetsAt; }
export function idsPtr(): usize { return idsAt; }
export function startsPtr(): usize { return startsAt; }
export function arenaPtr(): usize { return arenaAt; }
export function keyCount(): u32 { return size; }
/** Bytes the dictionary holds (table, starts and arena, as reserved). */
export function heldBytes(): usize { return tableSlots * 8 + startsCapacity * 4 + arenaCapacity; }

/** Every byte of the key, a word at a time (a hash of part of it would let crafted keys all collide). */
@inline function hashOf(p: usize, len: usize): u32 {
  let h: u64 = 0x9e3779b97f4a7c15 ^ <u64>len;
  let i: usize = 0;
  for (; i + 8 <= len; i += 8) {
    h = (h ^ load<u64>(p + i)) * 0xbf58476d1ce4e5b9;
    h ^= h >> 31;
  }
  for (; i < len; i++) h = (h ^ <u64>load<u8>(p + i)) * 0x100000001b3;
  h ^= h >> 29;
  h *= 0x94d049bb133111eb;
  return <u32>(h ^ (h >> 32));
}

@inline function same(a: usize, b: usize, len: usize): bool {
  let i: usize = 0;
  for (; i + 8 <= len; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  for (; i < len; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

/** The slot holding key [p, p + len) (hash h), or the free slot where it would go. */
@inline function probe(p: usize, len: usize, h: u32): usize {
  const mask = tableSlots - 1;
  let slot = <usize>h & mask;
  while (true) {
    const at = tableAt + (slot << 3);
    const id1 = load<u32>(at);
    if (id1 == 0) break;
    if (load<u32>(at + 4) == h) {
      const id = id1 - 1;
      const from = load<u32>(startsAt + (<usize>id << 2));
      const to = load<u32>(startsAt + ((<usize>id + 1) << 2));
      if (<usize>(to - from) == len && same(arenaAt + <usize>from, p, len)) break;
    }
    slot = (slot + 1) & mask;
  }
  return slot;
}

function rehash(): void {
  memory.fill(tableAt, 0, tableSlots * 8);
  const mask = tableSlots - 1;
  for (let id: u32 = 0; id < size; id++) {
    const from = <usize>load<u32>(startsAt + (<usize>id << 2));
    const to = <usize>load<u32>(startsAt + ((<usize>id + 1) << 2));
    const h = hashOf(arenaAt + from, to - from);
    let slot = <usize>h & mask;
    while (load<u32>(tableAt + (slot << 3)) != 0) slot = (slot + 1) & mask;
    store<u32>(tableAt + (slot << 3), id + 1);
    store<u32>(tableAt + (slot << 3) + 4, h);
  }
}

/** Where the prefetch's reads go, so that they are not optimized away. */
let sink: u32 = 0;

/**
 * Hashes the batch's keys into the ids region, and reads the places each lookup will read: a
 * lookup's three dependent cache misses (its table slot, the held key's start, its bytes) are most
 * of its time, and these reads are independent of one another, so their misses overlap; the
 * lookups then find the lines in cache (a batch's lines fit in L2).
 */
function prefetch(keys: u32): void {
  const mask = tableSlots - 1;
  let seen: u32 = 0;
  for (let k: usize = 0; k < <usize>keys; k++) {
    const from = <usize>load<u32>(offsetsAt + (k << 2));
    const len = <usize>load<u32>(offsetsAt + ((k + 1) << 2)) - from;
    const h = hashOf(bytesAt + from, len);
    store<u32>(idsAt + (k << 2), h);
    seen ^= load<u32>(tableAt + ((<usize>h & mask) << 3));
  }
  for (let k: usize = 0; k < <usize>keys; k++) {
    const id1 = load<u32>(tableAt + ((<usize>load<u32>(idsAt + (k << 2)) & mask) << 3));
    if (id1 == 0) continue;
    const start = load<u32>(startsAt + (<usize>(id1 - 1) << 2));
    seen ^= load<u8>(arenaAt + <usize>start);
  }
  sink ^= seen;
}

/**
 * The ids of the batch's `keys` keys (key k is the input bytes [offsets[k], offsets[k + 1])),
 * written to the ids region; keys not held are added when `add`, NO_ID otherwise. Needs a
 * `reserve` for the batch first.
 */
export function lookup(keys: u32, add: bool): Status {
  if (<usize>keys > inputKeys || <usize>size + <usize>keys > startsCapacity - 1) return Status.CAPACITY;
  prefetch(keys);
  for (let k: usize = 0; k < <usize>keys; k++) {
    const from = <usize>load<u32>(offsetsAt + (k << 2));
    const len = <usize>load<u32>(offsetsAt + ((k + 1) << 2)) - from;
    const p = bytesAt + from;
    const h = load<u32>(idsAt + (k << 2));
    const slot = probe(p, len, h);
    const at = tableAt + (slot << 3);
    const id1 = load<u32>(at);
    let id: u32;
    if (id1 != 0) id = id1 - 1;
    else if (!add) id = NO_ID;
    else {
      id = size++;
      memory.copy(arenaAt + arenaUsed, p, len);
      arenaUsed += len;
      store<u32>(startsAt + (<usize>size << 2), <u32>arenaUsed);
      store<u32>(at, id + 1);
      store<u32>(at + 4, h);
    }
    store<u32>(idsAt + (k << 2), id);
  }
  return Status.OK;
}
