import { Status } from '../status';

export { Status } from '../status';

/**
 * One ordered multiset of (u64 key, f64 payload) entries with exact order statistics
 * (src/windows/ordered-multiset.ts wraps it; its comment has the design). One instance holds one
 * set in its linear memory, as a chunked sorted list: entries ordered by (key, payload) in chunks of
 * fewer than `capacity` entries, each chunk a fixed-size slot of the slabs. Regions, in order:
 *   OUT: 4 f64 (a payload sum's limbs)
 *   INPUT: a batch's keys u64[input] | payloads f64[input]
 *   CHUNKS, in key order: slot u32 | last key u64 | prefix counts u32[+1] | suffix sums f64[4][+1]
 *   SLOTS, by slot: length u32 | last payload f64 | payload sum f64[4] | sum stale u32 | free u32
 *   KEYS: u64[slots * capacity]
 *   PAYLOADS: f64[slots * capacity], only once an entry has a non-zero payload (most sets have none)
 * Only what a binary search over the chunks reads is kept in key order; the rest is kept by slot,
 * so a split or a merge shifts 12 bytes a chunk, not 60 (no difference measured at 900k entries:
 * the searches' cache misses dominate either way). Regions only grow, laid out anew and moved up (the last first), like the
 * keys dictionary's.
 * Payloads are positions (src/windows/position-sum.ts): their sums are four f64 limbs, exact.
 */

const LIMBS: usize = 4;
const LIMB: f64 = 16777216; // 2^24

let capacity: usize = 0;
let minLength: u32 = 0;
let total: u32 = 0;
let chunks: u32 = 0;
let payloadsUsed = false;
let slotsInUse: u32 = 0;
let freeCount: u32 = 0;
let prefixStale = true;
let suffixStale = true;

// capacities
let inputCap: usize = 0;
let slotCap: usize = 0; // chunks <= slots in use <= slotCap
let payloadSlots: usize = 0; // slots the payload region holds (0 until payloads are used)

// region starts
let outAt: usize = 0;
let inKeysAt: usize = 0;
let inPaysAt: usize = 0;
let slotOfAt: usize = 0;
let lastKeyAt: usize = 0;
let prefixAt: usize = 0;
let suffixAt: usize = 0;
let lengthAt: usize = 0;
let lastPayAt: usize = 0;
let sumsAt: usize = 0;
let staleAt: usize = 0;
let freeAt: usize = 0;
let keysAt: usize = 0;
let paysAt: usize = 0;

@inline function align(x: usize): usize {
  return (x + 15) & ~15;
}

/** Grows the memory to hold `end` bytes (new pages are zero and untouched). */
function growTo(end: usize): bool {
  const pages = (<u64>end + 65535) >> 16;
  if (pages > 65536) return false;
  const have = <u64>memory.size();
  return pages <= have || memory.grow(<i32>(pages - have)) >= 0;
}

/** Lays the regions out for these capacities and moves what they hold (capacities never shrink). */
function layout(input: usize, slots: usize, paySlots: usize): bool {
  const o = align(<usize>__heap_base);
  const ik = align(o + LIMBS * 8);
  const ip = align(ik + input * 8);
  const so = align(ip + input * 8);
  const lk = align(so + slots * 4);
  const pr = align(lk + slots * 8);
  const sx = align(pr + (slots + 1) * 4);
  const le = align(sx + (slots + 1) * LIMBS * 8);
  const lp = align(le + slots * 4);
  const su = align(lp + slots * 8);
  const st = align(su + slots * LIMBS * 8);
  const fr = align(st + slots * 4);
  const ke = align(fr + slots * 4);
  const pa = align(ke + slots * capacity * 8);
  const end = pa + paySlots * capacity * 8;
  if (!growTo(end)) return false;
  const used = <usize>slotsInUse * capacity;
  const n = <usize>chunks;
  const s = <usize>slotsInUse;
  if (payloadSlots > 0) memory.copy(pa, paysAt, used * 8);
  else if (paySlots > 0) memory.fill(pa, 0, used * 8);
  if (keysAt != 0) {
    memory.copy(ke, keysAt, used * 8);
    memory.copy(fr, freeAt, <usize>freeCount * 4);
    memory.copy(st, staleAt, s * 4);
    memory.copy(su, sumsAt, s * LIMBS * 8);
    memory.copy(lp, lastPayAt, s * 8);
    memory.copy(le, lengthAt, s * 4);
    memory.copy(lk, lastKeyAt, n * 8);
    memory.copy(so, slotOfAt, n * 4);
  }
  outAt = o; inKeysAt = ik; inPaysAt = ip; slotOfAt = so; lastKeyAt = lk; prefixAt = pr; suffixAt = sx;
  lengthAt = le; lastPayAt = lp; sumsAt = su; staleAt = st; freeAt = fr; keysAt = ke; paysAt = pa;
  inputCap = input; slotCap = slots; payloadSlots = paySlots;
  prefixStale = suffixStale = true;
  return true;
}

@inline function grown(have: usize, need: usize): usize {
  return need <= have ? have : max(need, have + (have >> 1));
}

/** Sets the chunk capacity (even, >= 8) of a new set; call once, first. */
export function init(chunkCapacity: u32): Status {
  capacity = <usize>chunkCapacity;
  minLength = chunkCapacity >> 2;
  return layout(256, 16, 0) ? Status.OK : Status.OUT_OF_MEMORY;
}

/** Makes room for a batch of `n` entries in the input region (growing detaches JS views). */
export function reserve(n: u32): Status {
  if (<usize>n <= inputCap) return Status.OK;
  return layout(grown(inputCap, <usize>n), slotCap, payloadSlots) ? Status.OK : Status.OUT_OF_MEMORY;
}

export function inputKeysPtr(): usize { return inKeysAt; }
export function inputPayloadsPtr(): usize { return inPaysAt; }
export function outPtr(): usize { return outAt; }
export function size(): u32 { return total; }

// --- fields (c a chunk index in key order, slot its slot; pointers read after any growth) ---

@inline function slotOf(c: u32): usize { return <usize>load<u32>(slotOfAt + (<usize>c << 2)); }
@inline function lastKey(c: u32): u64 { return load<u64>(lastKeyAt + (<usize>c << 3)); }
@inline function lengthOf(c: u32): u32 { return load<u32>(lengthAt + (slotOf(c) << 2)); }
@inline function setLength(c: u32, n: u32): void { store<u32>(lengthAt + (slotOf(c) << 2), n); }
@inline function lastPay(c: u32): f64 { return load<f64>(lastPayAt + (slotOf(c) << 3)); }
@inline function sumOf(c: u32): usize { return sumsAt + slotOf(c) * LIMBS * 8; }
@inline function markStale(c: u32): void { store<u32>(staleAt + (slotOf(c) << 2), 1); }
@inline function keyAt(i: usize): u64 { return load<u64>(keysAt + (i << 3)); }
@inline function payAt(i: usize): f64 { return payloadsUsed ? load<f64>(paysAt + (i << 3)) : 0; }

@inline function setLast(c: u32, key: u64, pay: f64): void {
  store<u64>(lastKeyAt + (<usize>c << 3), key);
  store<f64>(lastPayAt + (slotOf(c) << 3), pay);
}

function refreshLast(c: u32): void {
  const at = slotOf(c) * capacity + <usize>lengthOf(c) - 1;
  setLast(c, keyAt(at), payAt(at));
}

/** Adds position x to (sign 1) or takes it from (-1) the limbs at `at` (position-sum.ts's addPosition). */
@inline function addPosition(at: usize, x: f64, sign: f64): void {
  let y = x * LIMB;
  const a3 = Math.floor(y);
  y = (y - a3) * LIMB;
  const a2 = Math.floor(y);
  y = (y - a2) * LIMB;
  const a1 = Math.floor(y);
  store<f64>(at, load<f64>(at) + sign * a3);
  store<f64>(at + 8, load<f64>(at + 8) + sign * a2);
  store<f64>(at + 16, load<f64>(at + 16) + sign * a1);
  store<f64>(at + 24, load<f64>(at + 24) + sign * (y - a1) * LIMB);
}

/** (ka, pa) < (kb, pb), or <= when `orEqual`. A payload of -1 (none is negative) compares keys alone. */
@inline function before(ka: u64, pa: f64, kb: u64, pb: f64, orEqual: bool): bool {
  return ka < kb || (ka == kb && (orEqual ? pa <= pb : pa < pb));
}

/** The first chunk whose last entry is not before (key, pay) (see `before`), or `chunks`. */
@inline function chunkNotBefore(key: u64, pay: f64, orEqual: bool): u32 {
  let a: u32 = 0;
  let b: u32 = chunks;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (before(lastKey(m), lastPay(m), key, pay, orEqual)) a = m + 1;
    else b = m;
  }
  return a;
}

/** Offset within chunk c of its first entry not before (key, pay), in [0, length]. */
@inline function offsetNotBefore(c: u32, key: u64, pay: f64, orEqual: bool): usize {
  const base = slotOf(c) * capacity;
  let i = base;
  let j = base + <usize>lengthOf(c);
  while (i < j) {
    const m = (i + j) >>> 1;
    if (before(keyAt(m), payAt(m), key, pay, orEqual)) i = m + 1;
    else j = m;
  }
  return i - base;
}

/** Moves `count` entries from slab index `from` to `to` (ranges may overlap). */
function move(to: usize, from: usize, count: usize): void {
  memory.copy(keysAt + (to << 3), keysAt + (from << 3), count << 3);
  if (payloadsUsed) memory.copy(paysAt + (to << 3), paysAt + (from << 3), count << 3);
}

function newSlot(): u32 {
  if (freeCount > 0) {
    freeCount--;
    return load<u32>(freeAt + (<usize>freeCount << 2));
  }
  if (<usize>slotsInUse == slotCap) {
    const slots = slotCap << 1;
    if (!layout(inputCap, slots, payloadsUsed ? slots : 0)) unreachable();
  }
  return slotsInUse++;
}

/** Inserts an empty chunk at position c. */
function openChunk(c: u32): void {
  const slot = newSlot(); // may lay the regions out anew: pointers are read after it
  const tail = <usize>(chunks - c);
  const i = <usize>c;
  memory.copy(slotOfAt + ((i + 1) << 2), slotOfAt + (i << 2), tail << 2);
  memory.copy(lastKeyAt + ((i + 1) << 3), lastKeyAt + (i << 3), tail << 3);
  store<u32>(slotOfAt + (i << 2), slot);
  setLength(c, 0);
  markStale(c);
  chunks++;
}

/** Removes chunk c (its entries are gone or moved). */
function closeChunk(c: u32): void {
  store<u32>(freeAt + (<usize>freeCount << 2), <u32>slotOf(c));
  freeCount++;
  const tail = <usize>(chunks - c - 1);
  const i = <usize>c;
  memory.copy(slotOfAt + (i << 2), slotOfAt + ((i + 1) << 2), tail << 2);
  memory.copy(lastKeyAt + (i << 3), lastKeyAt + ((i + 1) << 3), tail << 3);
  chunks--;
}

/** Splits full chunk c in two halves. */
function split(c: u32): void {
  openChunk(c + 1);
  const n = lengthOf(c);
  const half = n >> 1;
  move(slotOf(c + 1) * capacity, slotOf(c) * capacity + <usize>half, <usize>(n - half));
  setLength(c + 1, n - half);
  setLength(c, half);
  setLast(c + 1, lastKey(c), lastPay(c));
  refreshLast(c);
  markStale(c);
}

/** Merges chunks c and c + 1, or rebalances them when together they would fill a chunk. */
function merge(c: u32): void {
  const d = c + 1;
  const nc = <usize>lengthOf(c);
  const nd = <usize>lengthOf(d);
  const bc = slotOf(c) * capacity;
  const bd = slotOf(d) * capacity;
  if (nc + nd < capacity) {
    move(bc + nc, bd, nd);
    setLength(c, <u32>(nc + nd));
    setLast(c, lastKey(d), lastPay(d));
    markStale(c);
    closeChunk(d);
    return;
  }
  const half = (nc + nd) >> 1;
  if (nc < half) {
    move(bc + nc, bd, half - nc);
    move(bd, bd + half - nc, nd - (half - nc));
  } else {
    move(bd + nc - half, bd, nd);
    move(bd, bc + half, nc - half);
  }
  setLength(c, <u32>half);
  setLength(d, <u32>(nc + nd - half));
  refreshLast(c);
  markStale(c);
  markStale(d);
}

/** Starts keeping payloads: every entry so far has payload 0. */
function usePayloads(): void {
  if (!layout(inputCap, slotCap, slotCap)) unreachable();
  payloadsUsed = true;
}

function insert(key: u64, pay: f64): void {
  if (pay != 0 && !payloadsUsed) usePayloads();
  if (chunks == 0) openChunk(0);
  // the first chunk whose last entry is > (key, pay), else the last chunk
  const c = min(chunkNotBefore(key, pay, true), chunks - 1);
  const base = slotOf(c) * capacity;
  const n = lengthOf(c);
  const end = base + <usize>n;
  const i = base + offsetNotBefore(c, key, pay, true);
  if (i < end) move(i + 1, i, end - i);
  store<u64>(keysAt + (i << 3), key);
  if (payloadsUsed) store<f64>(paysAt + (i << 3), pay);
  if (pay != 0) addPosition(sumOf(c), pay, 1);
  setLength(c, n + 1);
  if (i == end) setLast(c, key, pay);
  total++;
  prefixStale = suffixStale = true;
  if (<usize>(n + 1) == capacity) split(c);
}

function remove1(key: u64, pay: f64): bool {
  // the first chunk whose last entry is >= (key, pay)
  const c = chunkNotBefore(key, pay, false);
  if (c == chunks) return false;
  const base = slotOf(c) * capacity;
  const n = lengthOf(c);
  const end = base + <usize>n;
  const i = base + offsetNotBefore(c, key, pay, false);
  // i < end: the chunk's last entry is >= the target
  if (keyAt(i) != key || payAt(i) != pay) return false;
  move(i, i + 1, end - i - 1);
  setLength(c, n - 1);
  total--;
  prefixStale = suffixStale = true;
  if (n == 1) {
    closeChunk(c);
    return true;
  }
  if (pay != 0) addPosition(sumOf(c), pay, -1);
  if (i == end - 1) refreshLast(c);
  if (n - 1 < minLength && chunks > 1) merge(c + 1 < chunks ? c : c - 1);
  return true;
}

/** Adds the input's first `n` entries (payloads 0 unless `withPayloads`). */
export function add(n: u32, withPayloads: bool): Status {
  if (<usize>n > inputCap) return Status.CAPACITY;
  for (let k: usize = 0; k < <usize>n; k++) {
    insert(load<u64>(inKeysAt + (k << 3)), withPayloads ? load<f64>(inPaysAt + (k << 3)) : 0);
  }
  return Status.OK;
}

/**
 * Removes the input's first `n` entries. If entry k is absent, the k removed before it are added
 * back (the set is unchanged) and k is returned; -1 when all were removed.
 */
export function remove(n: u32, withPayloads: bool): i32 {
  for (let k: usize = 0; k < <usize>n; k++) {
    if (!remove1(load<u64>(inKeysAt + (k << 3)), withPayloads ? load<f64>(inPaysAt + (k << 3)) : 0)) {
      for (let j: usize = 0; j < k; j++) insert(load<u64>(inKeysAt + (j << 3)), withPayloads ? load<f64>(inPaysAt + (j << 3)) : 0);
      return <i32>k;
    }
  }
  return -1;
}

export function addOne(key: u64, pay: f64): void {
  insert(key, pay);
}

export function removeOne(key: u64, pay: f64): bool {
  return remove1(key, pay);
}

/** Removes every entry (the memory is kept for reuse). */
export function clear(): void {
  chunks = 0;
  total = 0;
  slotsInUse = 0;
  freeCount = 0;
  prefixStale = suffixStale = true;
}

function refreshPrefix(): void {
  if (!prefixStale) return;
  let running: u32 = 0;
  for (let c: usize = 0; c < <usize>chunks; c++) {
    store<u32>(prefixAt + (c << 2), running);
    running += lengthOf(<u32>c);
  }
  store<u32>(prefixAt + (<usize>chunks << 2), running);
  prefixStale = false;
}

@inline function prefixOf(c: u32): u32 { return load<u32>(prefixAt + (<usize>c << 2)); }

/** The k-th smallest key, k in [0, size). */
export function kth(k: u32): u64 {
  refreshPrefix();
  let a: u32 = 0;
  let b: u32 = chunks - 1;
  while (a < b) {
    const m = (a + b + 1) >>> 1;
    if (prefixOf(m) <= k) a = m;
    else b = m - 1;
  }
  return keyAt(slotOf(a) * capacity + <usize>(k - prefixOf(a)));
}

/** Nearest-rank percentile (DESIGN.md 6) of a non-empty set, `millis` in 0..100000. */
export function percentile(millis: u32): u64 {
  const rank = (<u64>millis * <u64>total + 99999) / 100000; // ceil
  return kth(rank == 0 ? 0 : <u32>(rank - 1));
}

export function smallest(): u64 {
  return keyAt(slotOf(0) * capacity);
}

export function largest(): u64 {
  return lastKey(chunks - 1);
}

/** The first chunk whose last key is >= x, or `chunks`. */
function firstChunkAtLeast(x: u64): u32 {
  return chunkNotBefore(x, -1, false);
}

/** Offset within chunk c of its first entry with key >= x. */
function lowerBoundIn(c: u32, x: u64): usize {
  return offsetNotBefore(c, x, -1, false);
}

/** Entries with key >= x. */
export function countAtLeast(x: u64): u32 {
  const c = firstChunkAtLeast(x);
  if (c == chunks) return 0;
  refreshPrefix();
  return total - prefixOf(c) - <u32>lowerBoundIn(c, x);
}

function chunkSum(to: usize, from: usize, end: usize): void {
  memory.fill(to, 0, LIMBS * 8);
  if (!payloadsUsed) return;
  for (let i = from; i < end; i++) addPosition(to, load<f64>(paysAt + (i << 3)), 1);
}

function refreshSuffix(): void {
  if (!suffixStale) return;
  memory.fill(suffixAt + <usize>chunks * LIMBS * 8, 0, LIMBS * 8);
  for (let c = <i32>chunks - 1; c >= 0; c--) {
    const slot = slotOf(<u32>c);
    const sum = sumsAt + slot * LIMBS * 8;
    if (load<u32>(staleAt + (slot << 2)) != 0) {
      chunkSum(sum, slot * capacity, slot * capacity + <usize>lengthOf(<u32>c));
      store<u32>(staleAt + (slot << 2), 0);
    }
    const at = suffixAt + <usize>c * LIMBS * 8;
    for (let l: usize = 0; l < LIMBS * 8; l += 8) store<f64>(at + l, load<f64>(at + LIMBS * 8 + l) + load<f64>(sum + l));
  }
  suffixStale = false;
}

/** Writes to OUT the limbs of the exact payload sum of the entries with key >= x (0 when none). */
export function payloadSumAtLeast(x: u64): void {
  const out = outAt;
  memory.fill(out, 0, LIMBS * 8);
  if (total == 0) return;
  const c = firstChunkAtLeast(x);
  if (c == chunks) return;
  const from = lowerBoundIn(c, x);
  refreshSuffix();
  const base = slotOf(c) * capacity;
  if (from == 0) {
    memory.copy(out, suffixAt + <usize>c * LIMBS * 8, LIMBS * 8);
    return;
  }
  chunkSum(out, base + from, base + <usize>lengthOf(c));
  const next = suffixAt + (<usize>c + 1) * LIMBS * 8;
  for (let l: usize = 0; l < LIMBS * 8; l += 8) store<f64>(out + l, load<f64>(out + l) + load<f64>(next + l));
}
