import { Status } from '../status';
import { selectU64, sortPairsU64 } from '../sort';

export { Status } from '../status';

/**
 * Nested trailing windows over one stream of (u64 key, f64 payload) entries, with exact order
 * statistics for each window (src/windows/nested-windows.ts wraps it; its comment has the design).
 * One instance holds one stream in its linear memory.
 *
 * Entries come in time order and leave each window in the same order, shortest window first, so
 * window w holds a suffix of the stream, and window w's entries within any key range are a suffix
 * of that range's entries. The key space is cut into buckets, ranges [lo, next lo) that split when
 * they hold more than 2 * target entries and merge when the buckets are many for the entries held.
 * A bucket keeps its entries unsorted, oldest first, in a list of pages (a FIFO), and per layer a
 * count and a payload sum: layer j holds the entries in window j but not in window j - 1, so an
 * entry that arrives changes layer 0, one that leaves window w moves from layer w to w + 1 (or out,
 * the last window), and window w's entries in a bucket are its newest `count of layers 0..w`. Groups
 * of 64 buckets keep the same sums, for the scans that find a rank. An order statistic scans the
 * groups, then one group's buckets, then selects within one bucket's suffix.
 * Regions, in order (each only grows; laid out anew and moved up, the last first):
 *   OUT: 4 f64 (a payload sum's limbs) + f64 (a count) | TEMP: one layer record + one list
 *   INPUT: a batch's keys u64[input] | payloads f64[input]
 *   SCRATCH: keys u64[scratch] | payloads f64[scratch] (one bucket's suffix) | keys u64[scratch] (a selection's)
 *   TOTALS: one layer record for every entry held
 *   LO: u64[buckets], the buckets' lower bounds, ascending, the first 0
 *   LISTS: u32[6][buckets]: entries, head page, head offset, tail page, tail length, sorted prefix
 *   LAYERS: a layer record per bucket: counts u32[windows] (padded to 8 bytes) | sums f64[windows][4]
 *   GROUPS: a layer record per 64 buckets
 *   PAGES: per page: next u32 | pad | seq u32[PAGE] | keys u64[PAGE] | payloads f64[PAGE]
 * Payloads are positions (src/windows/position-sum.ts): their sums are four f64 limbs, exact.
 *
 * A growing stream (one window that entries only enter, until it is cleared) has no use for time
 * order within a bucket: a bucket asked for an order statistic is sorted in place then, and read by
 * index; its list keeps how many of its oldest entries are in order, so the next time it is asked
 * only the arrivals since are sorted and merged in. An hour's fee window asks about 130 order
 * statistics after every block while a block's arrivals touch a few percent of its buckets: most
 * are then a read instead of a selection over the bucket.
 */

const LIMBS: usize = 4;
const LIMB: f64 = 16777216; // 2^24
const PAGE: usize = 32;
const GROUP_SHIFT: u32 = 6;
const NONE: u32 = 0xffffffff;
const LIST: usize = 24; // bytes of a list's header

let windows: usize = 0;
let payloads = false;
let growing = false;
let target: u32 = 0;
let buckets: u32 = 0;
let entries: u32 = 0;
let seq: u32 = 0;
let freePage: u32 = NONE;
let pagesUsed: u32 = 0;

// capacities
let inputCap: usize = 0;
let scratchCap: usize = 0;
let bucketCap: usize = 0;
let pageCap: usize = 0;

// record sizes
let countBytes: usize = 0;
let layerBytes: usize = 0;
let pageBytes: usize = 0;

// region starts
let outAt: usize = 0;
let tempLayerAt: usize = 0;
let tempListAt: usize = 0;
let inKeysAt: usize = 0;
let inPaysAt: usize = 0;
let scratchKeysAt: usize = 0;
let scratchPaysAt: usize = 0;
let selectAt: usize = 0;
let totalsAt: usize = 0;
let loAt: usize = 0;
let listsAt: usize = 0;
let layersAt: usize = 0;
let groupsAt: usize = 0;
let pagesAt: usize = 0;

@inline function align(x: usize): usize {
  return (x + 15) & ~15;
}

@inline function groupsFor(n: usize): usize {
  return (n + 63) >> GROUP_SHIFT;
}

/** Grows the memory to hold `end` bytes. */
function growTo(end: usize): bool {
  const pages = (<u64>end + 65535) >> 16;
  if (pages > 65536) return false;
  const have = <u64>memory.size();
  return pages <= have || memory.grow(<i32>(pages - have)) >= 0;
}

/** Lays the regions out for these capacities (none shrinks) and moves what they hold, the last first. */
function layout(input: usize, scratch: usize, bucketsCap: usize, pagesCap: usize): bool {
  const o = align(<usize>__heap_base);
  const tl = align(o + LIMBS * 8 + 8);
  const tq = align(tl + layerBytes);
  const ik = align(tq + LIST);
  const ip = align(ik + input * 8);
  const sk = align(ip + input * 8);
  const sp = align(sk + scratch * 8);
  const ss = align(sp + scratch * 8);
  const tt = align(ss + scratch * 8);
  const lo = align(tt + layerBytes);
  const li = align(lo + bucketsCap * 8);
  const la = align(li + bucketsCap * LIST);
  const gr = align(la + bucketsCap * layerBytes);
  const pg = align(gr + groupsFor(bucketsCap) * layerBytes);
  const end = pg + pagesCap * pageBytes;
  if (!growTo(end)) return false;
  if (pagesAt != 0) {
    const n = <usize>buckets;
    memory.copy(pg, pagesAt, <usize>pagesUsed * pageBytes);
    memory.copy(gr, groupsAt, groupsFor(n) * layerBytes);
    memory.copy(la, layersAt, n * layerBytes);
    memory.copy(li, listsAt, n * LIST);
    memory.copy(lo, loAt, n * 8);
    memory.copy(tt, totalsAt, layerBytes);
  }
  outAt = o; tempLayerAt = tl; tempListAt = tq; inKeysAt = ik; inPaysAt = ip; scratchKeysAt = sk; scratchPaysAt = sp; selectAt = ss;
  totalsAt = tt; loAt = lo; listsAt = li; layersAt = la; groupsAt = gr; pagesAt = pg;
  inputCap = input; scratchCap = scratch; bucketCap = bucketsCap; pageCap = pagesCap;
  return true;
}

@inline function grown(have: usize, need: usize): usize {
  return need <= have ? have : max(need, have + (have >> 1));
}

/**
 * Sets up a stream of `windowCount` (1..16) nested windows, shortest first, with payloads or not,
 * buckets of about `bucketTarget` (>= 2) entries; `grows` 1 for a growing stream (one window, no
 * `leave`: see the module comment). Call once, first.
 */
export function init(windowCount: u32, withPayloads: u32, bucketTarget: u32, grows: u32): Status {
  windows = <usize>windowCount;
  payloads = withPayloads != 0;
  growing = grows != 0;
  target = bucketTarget;
  countBytes = (windows * 4 + 7) & ~7;
  layerBytes = countBytes + (payloads ? windows * LIMBS * 8 : 0);
  pageBytes = 8 + PAGE * 4 + PAGE * 8 + (payloads ? PAGE * 8 : 0);
  if (!layout(256, 2 * <usize>target + 2, 64, 64)) return Status.OUT_OF_MEMORY;
  clear();
  return Status.OK;
}

/** Empties every window (the memory is kept for reuse: WebAssembly memory is freed only with its instance). */
export function clear(): void {
  buckets = 1;
  entries = 0;
  freePage = NONE;
  pagesUsed = 0;
  store<u64>(loAt, 0);
  clearList(listOf(0));
  memory.fill(layersAt, 0, layerBytes);
  memory.fill(groupsAt, 0, layerBytes);
  memory.fill(totalsAt, 0, layerBytes);
}

/** Makes room for a batch of `n` entries in the input region (growing detaches JS views). */
export function reserve(n: u32): Status {
  if (<usize>n <= inputCap) return Status.OK;
  return layout(grown(inputCap, <usize>n), scratchCap, bucketCap, pageCap) ? Status.OK : Status.OUT_OF_MEMORY;
}

/** Sorts the `n` input entries by key (their payloads with them when asked): see `sortByKey` in src/windows/nested-windows.ts. */
export function sortInput(n: u32, withPayloads: u32): Status {
  if (<usize>n > inputCap) return Status.CAPACITY;
  sortPairsU64(inKeysAt, withPayloads != 0 ? inPaysAt : 0, n);
  return Status.OK;
}

export function inputKeysPtr(): usize { return inKeysAt; }
export function inputPayloadsPtr(): usize { return inPaysAt; }
export function outPtr(): usize { return outAt; }

// --- pages and lists (a list: entries, head page, head offset, tail page, tail length) ---

@inline function pageAt(p: u32): usize { return pagesAt + <usize>p * pageBytes; }
@inline function seqAt(p: u32, i: usize): usize { return pageAt(p) + 8 + (i << 2); }
@inline function keyAt(p: u32, i: usize): usize { return pageAt(p) + 8 + PAGE * 4 + (i << 3); }
@inline function payAt(p: u32, i: usize): usize { return pageAt(p) + 8 + PAGE * 12 + (i << 3); }
@inline function nextOf(p: u32): u32 { return load<u32>(pageAt(p)); }

@inline function listOf(b: u32): usize { return listsAt + <usize>b * LIST; }
@inline function sizeOf(list: usize): u32 { return load<u32>(list); }
/** How many of a list's oldest entries are in key order (a growing stream's; 0 otherwise). */
@inline function sortedOf(list: usize): u32 { return load<u32>(list, 20); }

function clearList(list: usize): void {
  store<u32>(list, 0);
  store<u32>(list, NONE, 4);
  store<u32>(list, 0, 8);
  store<u32>(list, NONE, 12);
  store<u32>(list, 0, 16);
  store<u32>(list, 0, 20);
}

/** A page off the free list, or a new one (the pages region is the last: growing it moves nothing else). */
function newPage(): u32 {
  let p = freePage;
  if (p != NONE) {
    freePage = nextOf(p);
  } else {
    if (<usize>pagesUsed == pageCap && !layout(inputCap, scratchCap, bucketCap, grown(pageCap, pageCap + 1))) return NONE;
    p = pagesUsed++;
  }
  store<u32>(pageAt(p), NONE);
  return p;
}

@inline function freeOne(p: u32): void {
  store<u32>(pageAt(p), freePage);
  freePage = p;
}

function append(list: usize, key: u64, pay: f64, s: u32): bool {
  let tail = load<u32>(list, 12);
  let len = <usize>load<u32>(list, 16);
  if (tail == NONE || len == PAGE) {
    const p = newPage();
    if (p == NONE) return false;
    if (tail == NONE) {
      store<u32>(list, p, 4);
      store<u32>(list, 0, 8);
    } else {
      store<u32>(pageAt(tail), p);
    }
    tail = p;
    len = 0;
    store<u32>(list, p, 12);
  }
  store<u32>(seqAt(tail, len), s);
  store<u64>(keyAt(tail, len), key);
  if (payloads) store<f64>(payAt(tail, len), pay);
  store<u32>(list, <u32>len + 1, 16);
  store<u32>(list, sizeOf(list) + 1);
  return true;
}

/** Drops the oldest entry of a non-empty list. */
function dropOldest(list: usize): void {
  const head = load<u32>(list, 4);
  const off = load<u32>(list, 8) + 1;
  const tail = load<u32>(list, 12);
  store<u32>(list, sizeOf(list) - 1);
  if (head == tail) {
    if (off < load<u32>(list, 16)) {
      store<u32>(list, off, 8);
    } else {
      freeOne(head);
      clearList(list);
    }
  } else if (<usize>off < PAGE) {
    store<u32>(list, off, 8);
  } else {
    store<u32>(list, nextOf(head), 4);
    store<u32>(list, 0, 8);
    freeOne(head);
  }
}

// --- layer records (counts u32[windows] | sums f64[windows][4]) ---

@inline function layerOf(b: u32): usize { return layersAt + <usize>b * layerBytes; }
@inline function groupOf(b: u32): usize { return groupsAt + (<usize>(b >> GROUP_SHIFT)) * layerBytes; }

// a payload's limbs (position-sum.ts's addPosition), taken once for every record it changes
let limb3: f64 = 0;
let limb2: f64 = 0;
let limb1: f64 = 0;
let limb0: f64 = 0;

@inline function takeLimbs(x: f64): void {
  let y = x * LIMB;
  limb3 = Math.floor(y);
  y = (y - limb3) * LIMB;
  limb2 = Math.floor(y);
  y = (y - limb2) * LIMB;
  limb1 = Math.floor(y);
  limb0 = (y - limb1) * LIMB;
}

/** Adds the limbs taken to (f 1) or takes them from (-1) the sum at `at`. */
@inline function addLimbs(at: usize, f: f64): void {
  store<f64>(at, load<f64>(at) + f * limb3);
  store<f64>(at + 8, load<f64>(at + 8) + f * limb2);
  store<f64>(at + 16, load<f64>(at + 16) + f * limb1);
  store<f64>(at + 24, load<f64>(at + 24) + f * limb0);
}

/** Counts the entry whose payload's limbs were taken in (sign 1) or out of (-1) a record's layer. */
@inline function bump(record: usize, layer: usize, sign: i32): void {
  const c = record + (layer << 2);
  store<u32>(c, load<u32>(c) + <u32>sign);
  if (payloads) addLimbs(record + countBytes + layer * LIMBS * 8, <f64>sign);
}

/** {@link bump} for bucket b, its group and the totals. */
@inline function touch(b: u32, layer: usize, sign: i32): void {
  bump(layerOf(b), layer, sign);
  bump(groupOf(b), layer, sign);
  bump(totalsAt, layer, sign);
}

/** Entries of a record in windows 0..w. */
@inline function countIn(record: usize, w: usize): u32 {
  let n: u32 = 0;
  for (let j: usize = 0; j <= w; j++) n += load<u32>(record + (j << 2));
  return n;
}

/** Adds (sign 1) or takes away (-1) the payload sums of a record's windows 0..w to the limbs at `to`. */
function addSumsIn(to: usize, record: usize, w: usize, sign: f64): void {
  if (!payloads) return;
  for (let j: usize = 0; j <= w; j++) {
    const at = record + countBytes + j * LIMBS * 8;
    for (let l: usize = 0; l < LIMBS * 8; l += 8) store<f64>(to + l, load<f64>(to + l) + sign * load<f64>(at + l));
  }
}

/** Adds the record at `from` to the record at `to`, every layer. */
function addRecord(to: usize, from: usize): void {
  for (let j: usize = 0; j < windows; j++) store<u32>(to + (j << 2), load<u32>(to + (j << 2)) + load<u32>(from + (j << 2)));
  if (!payloads) return;
  for (let l: usize = countBytes; l < layerBytes; l += 8) store<f64>(to + l, load<f64>(to + l) + load<f64>(from + l));
}

/** The groups' records made again from the buckets' (after buckets moved). */
function refreshGroups(): void {
  memory.fill(groupsAt, 0, groupsFor(<usize>buckets) * layerBytes);
  for (let b: u32 = 0; b < buckets; b++) addRecord(groupOf(b), layerOf(b));
}

// --- buckets ---

@inline function loOf(b: u32): u64 { return load<u64>(loAt + (<usize>b << 3)); }

/** The bucket whose range holds `key`: the last with lo <= key. */
function bucketOf(key: u64): u32 {
  return lastAtMost(0, key);
}

/** The last bucket from `a` on with lo <= key (bucket a's lo must be). */
function lastAtMost(a: u32, key: u64): u32 {
  let c: u32 = buckets - 1;
  while (a < c) {
    const m = (a + c + 1) >>> 1;
    if (loOf(m) <= key) a = m;
    else c = m - 1;
  }
  return a;
}

/**
 * The bucket whose range holds `key`, looked for from bucket `from` on when `key` is not below it
 * (a batch sorted by key finds its next bucket a few steps on), by `bucketOf` otherwise.
 */
function bucketFrom(from: u32, key: u64): u32 {
  if (loOf(from) > key) return bucketOf(key);
  let a = from;
  for (let steps = 0; steps < 4; steps++) {
    if (a + 1 == buckets || loOf(a + 1) > key) return a;
    a++;
  }
  return lastAtMost(a, key);
}

/** Whether bucket b's range is a single key (it can hold any number of entries and never splits). */
@inline function single(b: u32): bool {
  return b + 1 < buckets ? loOf(b + 1) - loOf(b) == 1 : loOf(b) == u64.MAX_VALUE;
}

/** Inserts `n` empty buckets before bucket b (capacity already there). */
function openBuckets(b: u32, n: u32): void {
  const tail = <usize>(buckets - b);
  const i = <usize>b;
  const k = <usize>n;
  memory.copy(loAt + ((i + k) << 3), loAt + (i << 3), tail << 3);
  memory.copy(listsAt + (i + k) * LIST, listsAt + i * LIST, tail * LIST);
  memory.copy(layersAt + (i + k) * layerBytes, layersAt + i * layerBytes, tail * layerBytes);
  for (let j: u32 = 0; j < n; j++) {
    clearList(listOf(b + j));
    memory.fill(layerOf(b + j), 0, layerBytes);
  }
  buckets += n;
}

/**
 * Splits bucket b (its range more than one key) around its median key m: [lo, m), [m, m + 1) and
 * [m + 1, next lo), leaving out the ranges that are empty. Each entry keeps its place in time and
 * its layer (from its place: the newest `count of layers 0..j` entries are in windows 0..j).
 */
function split(b: u32): bool {
  if (<usize>buckets + 2 > bucketCap && !layout(inputCap, scratchCap, grown(bucketCap, <usize>buckets + 2), pageCap)) return false;
  const n = sizeOf(listOf(b));
  if (<usize>n > scratchCap && !layout(inputCap, grown(scratchCap, <usize>n), bucketCap, pageCap)) return false;
  const list = listOf(b); // read after any growth
  copyNewest(list, n, false);
  const m = selectU64(scratchKeysAt, n, n >> 1);
  const lo = loOf(b);
  const hasBelow = m > lo;
  const hasAbove = m != u64.MAX_VALUE && (b + 1 == buckets || m + 1 < loOf(b + 1));
  // the old bucket's list and layer counts, kept aside while its place is reused
  memory.copy(tempListAt, list, LIST);
  memory.copy(tempLayerAt, layerOf(b), layerBytes);
  const parts: u32 = 1 + (hasBelow ? 1 : 0) + (hasAbove ? 1 : 0);
  openBuckets(b + 1, parts - 1);
  clearList(listOf(b));
  memory.fill(layerOf(b), 0, layerBytes);
  const equal = hasBelow ? b + 1 : b;
  store<u64>(loAt + (<usize>equal << 3), m);
  if (hasAbove) store<u64>(loAt + (<usize>(equal + 1) << 3), m + 1);
  // entries oldest first; `left` counts the entry and those newer, its layer is the first j whose
  // windows 0..j hold that many
  let layer = windows - 1;
  let within = layer > 0 ? countIn(tempLayerAt, layer - 1) : 0; // entries in windows 0..layer-1
  let left = n;
  let p = load<u32>(tempListAt, 4);
  let i = <usize>load<u32>(tempListAt, 8);
  const tail = load<u32>(tempListAt, 12);
  const tailLen = <usize>load<u32>(tempListAt, 16);
  while (left > 0) {
    while (layer > 0 && left <= within) {
      layer--;
      within -= load<u32>(tempLayerAt + (layer << 2));
    }
    const key = load<u64>(keyAt(p, i));
    const pay = payloads ? load<f64>(payAt(p, i)) : 0;
    const to = key < m ? b : key == m ? equal : equal + 1;
    if (!append(listOf(to), key, pay, load<u32>(seqAt(p, i)))) return false;
    if (payloads) takeLimbs(pay);
    bump(layerOf(to), layer, 1);
    left--;
    i++;
    if (i == (p == tail ? tailLen : PAGE)) {
      const next = nextOf(p);
      freeOne(p); // read to its end: new entries may take it now
      p = next;
      i = 0;
    }
  }
  refreshGroups();
  return true;
}

/** Merges bucket `from` into the list and record at TEMP, oldest entries first (by seq, wrap-safe). */
function mergeIntoTemp(from: u32): bool {
  const other = listOf(from);
  const nb = sizeOf(other);
  if (nb == 0) return true;
  addRecord(tempLayerAt, layerOf(from));
  const na = sizeOf(tempListAt);
  if (na == 0) {
    memory.copy(tempListAt, other, LIST);
    return true;
  }
  // both lists drained into a new one kept in bucket `from`'s header
  const a = tempListAt;
  let pa = load<u32>(a, 4), ia = <usize>load<u32>(a, 8), leftA = na;
  let pb = load<u32>(other, 4), ib = <usize>load<u32>(other, 8), leftB = nb;
  const tailA = load<u32>(a, 12), lenA = <usize>load<u32>(a, 16);
  const tailB = load<u32>(other, 12), lenB = <usize>load<u32>(other, 16);
  const out = listOf(from);
  clearList(out);
  while (leftA > 0 || leftB > 0) {
    const takeA = leftB == 0 || (leftA > 0 && <i32>(load<u32>(seqAt(pa, ia)) - load<u32>(seqAt(pb, ib))) <= 0);
    let p = takeA ? pa : pb;
    let i = takeA ? ia : ib;
    if (!append(out, load<u64>(keyAt(p, i)), payloads ? load<f64>(payAt(p, i)) : 0, load<u32>(seqAt(p, i)))) return false;
    i++;
    if (i == (takeA ? (p == tailA ? lenA : PAGE) : (p == tailB ? lenB : PAGE))) {
      const next = nextOf(p);
      freeOne(p);
      p = next;
      i = 0;
    }
    if (takeA) { pa = p; ia = i; leftA--; } else { pb = p; ib = i; leftB--; }
  }
  memory.copy(tempListAt, out, LIST);
  return true;
}

/** Merges runs of neighbouring buckets whose entries together are at most `target`. */
function compact(): bool {
  let out: u32 = 0;
  let b: u32 = 0;
  while (b < buckets) {
    let run = sizeOf(listOf(b));
    let e = b + 1;
    while (e < buckets && run + sizeOf(listOf(e)) <= target) run += sizeOf(listOf(e++));
    const lo = loOf(b);
    clearList(tempListAt);
    memory.fill(tempLayerAt, 0, layerBytes);
    for (let k = b; k < e; k++) if (!mergeIntoTemp(k)) return false;
    store<u64>(loAt + (<usize>out << 3), lo);
    memory.copy(listOf(out), tempListAt, LIST);
    memory.copy(layerOf(out), tempLayerAt, layerBytes);
    out++;
    b = e;
  }
  buckets = out;
  refreshGroups();
  return true;
}

/** Copies the newest `n` entries of a list (keys, and payloads when asked) to SCRATCH, oldest first. */
function copyNewest(list: usize, n: u32, withPays: bool): void {
  let skip = <usize>(sizeOf(list) - n);
  let p = load<u32>(list, 4);
  let i = <usize>load<u32>(list, 8);
  const tail = load<u32>(list, 12);
  const tailLen = <usize>load<u32>(list, 16);
  // whole pages skipped at once
  while (skip > 0) {
    const inPage = (p == tail ? tailLen : PAGE) - i;
    if (skip < inPage) {
      i += skip;
      break;
    }
    skip -= inPage;
    p = nextOf(p);
    i = 0;
  }
  let k: usize = 0;
  const total = <usize>n;
  while (k < total) {
    const end = p == tail ? tailLen : PAGE;
    const take = min(end - i, total - k);
    memory.copy(scratchKeysAt + (k << 3), keyAt(p, i), take << 3);
    if (withPays && payloads) memory.copy(scratchPaysAt + (k << 3), payAt(p, i), take << 3);
    k += take;
    p = nextOf(p);
    i = 0;
  }
}

/** Writes SCRATCH's `n` keys (and payloads) over a list of `n` entries, in order: the inverse of copyNewest(list, n, true). */
function copyBack(list: usize, n: u32): void {
  let p = load<u32>(list, 4);
  let i = <usize>load<u32>(list, 8);
  const tail = load<u32>(list, 12);
  const tailLen = <usize>load<u32>(list, 16);
  let k: usize = 0;
  const total = <usize>n;
  while (k < total) {
    const take = min((p == tail ? tailLen : PAGE) - i, total - k);
    memory.copy(keyAt(p, i), scratchKeysAt + (k << 3), take << 3);
    if (payloads) memory.copy(payAt(p, i), scratchPaysAt + (k << 3), take << 3);
    k += take;
    p = nextOf(p);
    i = 0;
  }
}

/**
 * Sorts a growing stream's bucket in place by key, its entries' payloads with them: the arrivals
 * after its sorted prefix are sorted and merged in (the whole list when they are many).
 */
function sortList(list: usize): void {
  const n = sizeOf(list);
  const p = sortedOf(list);
  if (p == n) return;
  copyNewest(list, n, true);
  const pays = payloads ? scratchPaysAt : 0;
  const m = n - p;
  if (p == 0 || <usize>(2 * m) > scratchCap) {
    sortPairsU64(scratchKeysAt, pays, n);
  } else {
    const at = <usize>p << 3;
    sortPairsU64(scratchKeysAt + at, pays == 0 ? 0 : pays + at, m);
    mergeTail(p, m);
  }
  copyBack(list, n);
  store<u32>(list, n, 20);
}

/**
 * Merges SCRATCH's sorted run [p, p + m) into its sorted run [0, p), from the back, the run moved
 * aside first (keys, then payloads, to the selection's region: 2m fit).
 */
function mergeTail(p: u32, m: u32): void {
  const tailKeys = selectAt;
  const tailPays = selectAt + (<usize>m << 3);
  memory.copy(tailKeys, scratchKeysAt + (<usize>p << 3), <usize>m << 3);
  if (payloads) memory.copy(tailPays, scratchPaysAt + (<usize>p << 3), <usize>m << 3);
  let i = <i32>p - 1;
  let j = <i32>m - 1;
  let k = <usize>(p + m);
  while (j >= 0) {
    k--;
    const t = load<u64>(tailKeys + (<usize>j << 3));
    if (i >= 0 && load<u64>(scratchKeysAt + (<usize>i << 3)) > t) {
      store<u64>(scratchKeysAt + (k << 3), load<u64>(scratchKeysAt + (<usize>i << 3)));
      if (payloads) store<f64>(scratchPaysAt + (k << 3), load<f64>(scratchPaysAt + (<usize>i << 3)));
      i--;
    } else {
      store<u64>(scratchKeysAt + (k << 3), t);
      if (payloads) store<f64>(scratchPaysAt + (k << 3), load<f64>(tailPays + (<usize>j << 3)));
      j--;
    }
  }
}

/** The key of a list's entry i (0 the oldest). */
function keyAtIndex(list: usize, i: u32): u64 {
  let p = load<u32>(list, 4);
  let at = <usize>load<u32>(list, 8) + <usize>i;
  while (at >= PAGE) {
    at -= PAGE;
    p = nextOf(p);
  }
  return load<u64>(keyAt(p, at));
}

// --- changes ---

/** The `n` input entries arrive, the newest: they enter every window. */
export function add(n: u32, withPayloads: u32): Status {
  if (<usize>n > inputCap) return Status.CAPACITY;
  if (buckets > 1 && buckets > 2 * (entries / target) + 8 && !compact()) return Status.OUT_OF_MEMORY;
  const s = seq++;
  const limit: u32 = target << 1;
  for (let k: usize = 0; k < <usize>n; k++) {
    const key = load<u64>(inKeysAt + (k << 3));
    const pay = withPayloads != 0 ? load<f64>(inPaysAt + (k << 3)) : 0;
    const b = bucketOf(key);
    const list = listOf(b);
    if (!append(list, key, pay, s)) return Status.OUT_OF_MEMORY;
    if (payloads) takeLimbs(pay);
    touch(b, 0, 1);
    entries++;
    if (sizeOf(list) > limit && !single(b) && !split(b)) return Status.OUT_OF_MEMORY;
  }
  return Status.OK;
}

/**
 * The `n` input entries, the oldest of window w (every shorter window left already), leave it:
 * they move to window w + 1's layer, or out of the stream when w is the last window. EMPTY when
 * the last window has no entry in an input key's bucket (the caller's order was wrong).
 */
export function leave(w: u32, n: u32, withPayloads: u32): Status {
  if (growing) return Status.EMPTY;
  if (<usize>n > inputCap) return Status.CAPACITY;
  const layer = <usize>w;
  const last = layer + 1 == windows;
  // a group's changes are summed over a run of entries in one group (a batch sorted by key has long
  // ones) and the totals' over the batch, each made once: the limbs are integers, so sums stay exact
  let b: u32 = 0;
  let group: u32 = 0;
  let run: u32 = 0, run3: f64 = 0, run2: f64 = 0, run1: f64 = 0, run0: f64 = 0;
  let all: u32 = 0, all3: f64 = 0, all2: f64 = 0, all1: f64 = 0, all0: f64 = 0;
  for (let k: usize = 0; k < <usize>n; k++) {
    const key = load<u64>(inKeysAt + (k << 3));
    b = bucketFrom(b, key);
    if (b >> GROUP_SHIFT != group) {
      moveLimbs(groupOf(group << GROUP_SHIFT), layer, last, run, run3, run2, run1, run0);
      all += run; all3 += run3; all2 += run2; all1 += run1; all0 += run0;
      group = b >> GROUP_SHIFT;
      run = 0; run3 = 0; run2 = 0; run1 = 0; run0 = 0;
    }
    if (payloads) {
      takeLimbs(withPayloads != 0 ? load<f64>(inPaysAt + (k << 3)) : 0);
      run3 += limb3; run2 += limb2; run1 += limb1; run0 += limb0;
    }
    run++;
    bump(layerOf(b), layer, -1);
    if (!last) {
      bump(layerOf(b), layer + 1, 1);
      continue;
    }
    // entries of one arrival batch may sit in a bucket in another order (a merge orders them by
    // batch): the bucket's oldest is one of this batch, and once the batch has left, the same ones are gone
    const list = listOf(b);
    if (sizeOf(list) == 0) return Status.EMPTY;
    dropOldest(list);
    entries--;
  }
  moveLimbs(groupOf(group << GROUP_SHIFT), layer, last, run, run3, run2, run1, run0);
  moveLimbs(totalsAt, layer, last, all + run, all3 + run3, all2 + run2, all1 + run1, all0 + run0);
  return Status.OK;
}

/** Moves `count` entries whose limbs sum to l3..l0 from a record's layer to the next (out of the last). */
function moveLimbs(record: usize, layer: usize, last: bool, count: u32, l3: f64, l2: f64, l1: f64, l0: f64): void {
  if (count == 0) return;
  const c = record + (layer << 2);
  store<u32>(c, load<u32>(c) - count);
  if (!last) store<u32>(c + 4, load<u32>(c + 4) + count);
  if (!payloads) return;
  const at = record + countBytes + layer * LIMBS * 8;
  store<f64>(at, load<f64>(at) - l3);
  store<f64>(at + 8, load<f64>(at + 8) - l2);
  store<f64>(at + 16, load<f64>(at + 16) - l1);
  store<f64>(at + 24, load<f64>(at + 24) - l0);
  if (last) return;
  const to = at + LIMBS * 8;
  store<f64>(to, load<f64>(to) + l3);
  store<f64>(to + 8, load<f64>(to + 8) + l2);
  store<f64>(to + 16, load<f64>(to + 16) + l1);
  store<f64>(to + 24, load<f64>(to + 24) + l0);
}

// --- order statistics of window w ---

export function size(w: u32): u32 {
  return countIn(totalsAt, <usize>w);
}

/** Entries of window w in the buckets before the one `findRank` found. */
let rankBefore: u32 = 0;

/** The bucket holding window w's k-th smallest entry (k < size(w)); sets `rankBefore`. */
function findRank(win: usize, k: u32): u32 {
  let acc: u32 = 0;
  let b: u32 = 0;
  // whole groups, then the buckets of one
  for (; b < buckets; b += 1 << GROUP_SHIFT) {
    const c = countIn(groupOf(b), win);
    if (acc + c > k) break;
    acc += c;
  }
  for (;; b++) {
    const c = countIn(layerOf(b), win);
    if (acc + c > k) break;
    acc += c;
  }
  rankBefore = acc;
  return b;
}

/** The k-th smallest key (0-based, k < size(w)) of window w. */
export function kth(w: u32, k: u32): u64 {
  const win = <usize>w;
  const b = findRank(win, k);
  if (single(b)) return loOf(b);
  if (growing) {
    sortList(listOf(b));
    return keyAtIndex(listOf(b), k - rankBefore);
  }
  const c = countIn(layerOf(b), win);
  copyNewest(listOf(b), c, false);
  return selectU64(scratchKeysAt, c, k - rankBefore);
}

@inline function rankOf(w: u32, millis: u32): u32 {
  const rank = (<u64>millis * <u64>size(w) + 99999) / 100000; // ceil
  return rank == 0 ? 0 : <u32>(rank - 1);
}

/** Nearest-rank percentile (DESIGN.md 6) of a non-empty window, `millis` in 0..100000. */
export function percentile(w: u32, millis: u32): u64 {
  return kth(w, rankOf(w, millis));
}

/**
 * The nearest-rank percentile of a non-empty window w, like `percentile`, and at OUT what
 * `payloadSumAtLeast` (4 limbs) and `countAtLeast` (an f64 after them) would give for it: one
 * search and one copy of the bucket for the three.
 */
export function percentileTail(w: u32, millis: u32): u64 {
  const win = <usize>w;
  const k = rankOf(w, millis);
  const b = findRank(win, k);
  const inBucket = countIn(layerOf(b), win);
  let count = size(w) - rankBefore - inBucket;
  sumsAfter(outAt, b, win);
  let key: u64;
  if (single(b)) {
    key = loOf(b);
    count += inBucket;
    addSumsIn(outAt, layerOf(b), win, 1);
  } else {
    if (growing) sortList(listOf(b));
    copyNewest(listOf(b), inBucket, true);
    if (growing) {
      key = load<u64>(scratchKeysAt + (<usize>(k - rankBefore) << 3)); // sorted: read by rank
    } else {
      memory.copy(selectAt, scratchKeysAt, <usize>inBucket << 3);
      key = selectU64(selectAt, inBucket, k - rankBefore);
    }
    count += tailOfScratch(inBucket, key);
  }
  store<f64>(outAt + LIMBS * 8, <f64>count);
  return key;
}

/** Entries of window w in buckets before b. */
function countBefore(b: u32, w: usize): u32 {
  let n: u32 = 0;
  const first = (b >> GROUP_SHIFT) << GROUP_SHIFT;
  for (let g: u32 = 0; g < first; g += 1 << GROUP_SHIFT) n += countIn(groupOf(g), w);
  for (let c = first; c < b; c++) n += countIn(layerOf(c), w);
  return n;
}

/** Writes at `out` the payload sum's limbs of window w's entries in buckets after b. */
function sumsAfter(out: usize, b: u32, w: usize): void {
  memory.fill(out, 0, LIMBS * 8);
  if (!payloads) return;
  // everything, less the buckets up to b
  addSumsIn(out, totalsAt, w, 1);
  const first = (b >> GROUP_SHIFT) << GROUP_SHIFT;
  for (let g: u32 = 0; g < first; g += 1 << GROUP_SHIFT) addSumsIn(out, groupOf(g), w, -1);
  for (let c = first; c <= b; c++) addSumsIn(out, layerOf(c), w, -1);
}

/** Of the `n` entries at SCRATCH, those with key >= x: adds their payloads to OUT's limbs, returns how many. */
function tailOfScratch(n: u32, x: u64): u32 {
  let count: u32 = 0;
  for (let i: usize = 0; i < <usize>n; i++) {
    if (load<u64>(scratchKeysAt + (i << 3)) < x) continue;
    count++;
    if (!payloads) continue;
    takeLimbs(load<f64>(scratchPaysAt + (i << 3)));
    addLimbs(outAt, 1);
  }
  return count;
}

/** Number of entries of window w with key >= x. */
export function countAtLeast(w: u32, x: u64): u32 {
  const win = <usize>w;
  const b = bucketOf(x);
  const inBucket = countIn(layerOf(b), win);
  let n = size(w) - countBefore(b, win) - inBucket;
  if (single(b)) return n + inBucket; // the bucket's one key is x
  copyNewest(listOf(b), inBucket, false);
  for (let i: usize = 0; i < <usize>inBucket; i++) if (load<u64>(scratchKeysAt + (i << 3)) >= x) n++;
  return n;
}

/** The limbs (at OUT) of the exact payload sum of window w's entries with key >= x. */
export function payloadSumAtLeast(w: u32, x: u64): void {
  const win = <usize>w;
  const b = bucketOf(x);
  sumsAfter(outAt, b, win);
  if (!payloads) return;
  if (single(b)) {
    addSumsIn(outAt, layerOf(b), win, 1); // the bucket's one key is x
    return;
  }
  const inBucket = countIn(layerOf(b), win);
  copyNewest(listOf(b), inBucket, true);
  tailOfScratch(inBucket, x);
}

/** Buckets in use (for tests and measurements). */
export function bucketCount(): u32 {
  return buckets;
}
