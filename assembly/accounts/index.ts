import { growTo } from '../grow';
import { Status } from '../status';
import { selectPercentilesU64 } from '../percentiles';

export { Status } from '../status';

/**
 * Local fee markets over the account spans of resident transactions (src/priorityfee/local-fees.ts).
 *
 * Inputs, for n transactions of consecutive blocks (m account ids in all, k wanted accounts):
 *   price u64[n] | limit u32[n] | vote u8[n] | spans u32[n + 1] | ids u32[m] | blocks u32[b + 1] |
 *   wanted u32[k] (ids in the same dictionary; u32.MAX for a key it lacks: it matches nothing)
 * Transaction i write-locks ids[spans[i]..spans[i + 1]); block j is transactions [blocks[j], blocks[j + 1]).
 *
 * `estimate` gathers the compute-unit prices of the counted transactions per wanted account, for
 * those locking any of them (combined), and for all of them (global), then takes each group's tier
 * percentiles (nearest rank). `recent` gives each block's fee as Solana's prioritization fee cache
 * reports it for those accounts. Memory above `__heap_base` is laid out by `reserve`.
 */

/** At most this many wanted accounts (the methods take 128). */
const MAX_WANTED: u32 = 256;
/** Percentiles per group. */
const MAX_TIERS: u32 = 16;
const NONE: u32 = u32.MAX_VALUE;

const TABLE_SLOTS: u32 = 1024; // >= 4 x MAX_WANTED: a sparse open-addressing table
const TABLE_KEYS = memory.data(<i32>(TABLE_SLOTS << 2), 16);
const TABLE_VALUES = memory.data(<i32>(TABLE_SLOTS << 2), 16);
const WANTED = memory.data(<i32>(MAX_WANTED << 2), 16);
const STAMP = memory.data(<i32>((MAX_WANTED + 2) << 2), 16); // last transaction (or block) counted per group, + 1
const COUNTS = memory.data(<i32>((MAX_WANTED + 2) << 2), 16); // per group: transactions
const ZEROS = memory.data(<i32>((MAX_WANTED + 2) << 2), 16); // per group: transactions with price 0
const STARTS = memory.data(<i32>((MAX_WANTED + 3) << 2), 16); // per group: first value
const MILLIS = memory.data(<i32>(MAX_TIERS << 2), 16);
const TIERS = memory.data(<i32>((MAX_WANTED + 2) * MAX_TIERS * 8), 16); // per group: one u64 per percentile
const ACCOUNT_MIN = memory.data(<i32>(MAX_WANTED << 3), 16);

let base: usize = 0;
let txCapacity: u32 = 0;
let idCapacity: u32 = 0;
let blockCapacity: u32 = 0;
let priceAt: usize = 0;
let limitAt: usize = 0;
let voteAt: usize = 0;
let spanAt: usize = 0;
let idAt: usize = 0;
let blockAt: usize = 0;
let valuesAt: usize = 0; // gathered prices: ids + 2 x transactions u64s
let scratchAt: usize = 0; // transactions u64s
let outAt: usize = 0; // per block: fee u64, then a u8 presence flag each

@inline function align(x: u64): u64 {
  return (x + 15) & ~15;
}

/**
 * Makes room for `n` transactions, `m` ids and `b` blocks, growing (and touching) linear memory when
 * needed. Growing detaches every JS view of the memory: re-create views after calling this.
 */
export function reserve(n: u32, m: u32, b: u32): Status {
  if (base == 0) base = <usize>align(<u64>__heap_base);
  if (n <= txCapacity && m <= idCapacity && b <= blockCapacity) return Status.OK;
  const tn = max(n, txCapacity + (txCapacity >> 1));
  const tm = max(m, idCapacity + (idCapacity >> 1));
  const tb = max(b, blockCapacity + (blockCapacity >> 1));
  let at = <u64>base;
  const price = at; at = align(at + <u64>tn * 8);
  const limit = at; at = align(at + <u64>tn * 4);
  const vote = at; at = align(at + <u64>tn);
  const span = at; at = align(at + (<u64>tn + 1) * 4);
  const ids = at; at = align(at + <u64>tm * 4);
  const blocks = at; at = align(at + (<u64>tb + 1) * 4);
  const values = at; at = align(at + (<u64>tm + 2 * <u64>tn) * 8);
  const scratch = at; at = align(at + <u64>tn * 8);
  const out = at; at = align(at + <u64>tb * 9);
  if (!growTo(at)) return Status.OUT_OF_MEMORY;
  txCapacity = tn;
  idCapacity = tm;
  blockCapacity = tb;
  priceAt = <usize>price;
  limitAt = <usize>limit;
  voteAt = <usize>vote;
  spanAt = <usize>span;
  idAt = <usize>ids;
  blockAt = <usize>blocks;
  valuesAt = <usize>values;
  scratchAt = <usize>scratch;
  outAt = <usize>out;
  return Status.OK;
}

export function pricePtr(): usize { return priceAt; }
export function limitPtr(): usize { return limitAt; }
export function votePtr(): usize { return voteAt; }
export function spanPtr(): usize { return spanAt; }
export function idPtr(): usize { return idAt; }
export function blockPtr(): usize { return blockAt; }
export function wantedPtr(): usize { return WANTED; }
export function millisPtr(): usize { return MILLIS; }
export function countsPtr(): usize { return COUNTS; }
export function zerosPtr(): usize { return ZEROS; }
export function tiersPtr(): usize { return TIERS; }
export function outPtr(): usize { return outAt; }
export function maxWanted(): u32 { return MAX_WANTED; }
export function maxTiers(): u32 { return MAX_TIERS; }

/** Fills the lookup table from the k wanted ids (distinct; NONE entries are left out). */
function index(k: u32): void {
  memory.fill(TABLE_KEYS, 0xff, TABLE_SLOTS << 2);
  for (let w: u32 = 0; w < k; w++) {
    const id = load<u32>(WANTED + (<usize>w << 2));
    if (id == NONE) continue;
    let slot = (id * 0x9e3779b1) & (TABLE_SLOTS - 1);
    while (load<u32>(TABLE_KEYS + (<usize>slot << 2)) != NONE) slot = (slot + 1) & (TABLE_SLOTS - 1);
    store<u32>(TABLE_KEYS + (<usize>slot << 2), id);
    store<u32>(TABLE_VALUES + (<usize>slot << 2), w);
  }
}

/** The wanted position of `id`, or NONE. */
@inline function lookup(id: u32): u32 {
  let slot = (id * 0x9e3779b1) & (TABLE_SLOTS - 1);
  let key = load<u32>(TABLE_KEYS + (<usize>slot << 2));
  while (key != id && key != NONE) {
    slot = (slot + 1) & (TABLE_SLOTS - 1);
    key = load<u32>(TABLE_KEYS + (<usize>slot << 2));
  }
  return key == NONE ? NONE : load<u32>(TABLE_VALUES + (<usize>slot << 2));
}

@inline function counted(i: u32, includeVote: bool): bool {
  return includeVote || load<u8>(voteAt + <usize>i) == 0;
}

/**
 * Tiers of the compute-unit price, per group: groups 0..k-1 are the wanted accounts, k those
 * locking any of them, k + 1 every counted transaction (votes only when `includeVote`). Writes
 * COUNTS, ZEROS and TIERS (t percentiles from MILLIS per group; left as is for an empty group).
 */
export function estimate(n: u32, k: u32, t: u32, includeVote: bool): Status {
  if (k > MAX_WANTED || t > MAX_TIERS) return Status.TOO_MANY_PERCENTILES;
  if (n > txCapacity) return Status.CAPACITY;
  const groups = k + 2;
  index(k);
  memory.fill(COUNTS, 0, <usize>groups << 2);
  memory.fill(ZEROS, 0, <usize>groups << 2);
  // pass 1: how many prices each group takes; pass 2: the prices, group after group (STARTS advances as it fills)
  visit(n, k, includeVote, false);
  let at: u32 = 0;
  for (let g: u32 = 0; g < groups; g++) {
    store<u32>(STARTS + (<usize>g << 2), at);
    at += load<u32>(COUNTS + (<usize>g << 2));
  }
  store<u32>(STARTS + (<usize>groups << 2), at);
  visit(n, k, includeVote, true);
  // STARTS[g] is now group g's end: its first value is the end minus its count
  for (let g: u32 = 0; g < groups; g++) {
    const count = load<u32>(COUNTS + (<usize>g << 2));
    if (count == 0) continue;
    const first = load<u32>(STARTS + (<usize>g << 2)) - count;
    const status = selectPercentilesU64(valuesAt + (<usize>first << 3), scratchAt, count, MILLIS, t, TIERS + <usize>g * MAX_TIERS * 8);
    if (status != Status.OK) return status;
  }
  return Status.OK;
}

/**
 * Each counted transaction joined to its groups (each wanted account it locks, once; any of them;
 * all): counted into COUNTS and ZEROS, or (`fill`) its price written at STARTS.
 */
function visit(n: u32, k: u32, includeVote: bool, fill: bool): void {
  memory.fill(STAMP, 0, <usize>(k + 2) << 2);
  for (let i: u32 = 0; i < n; i++) {
    if (!counted(i, includeVote)) continue;
    const price = load<u64>(priceAt + (<usize>i << 3));
    let any = false;
    const to = load<u32>(spanAt + (<usize>(i + 1) << 2));
    for (let j = load<u32>(spanAt + (<usize>i << 2)); j < to; j++) {
      const w = lookup(load<u32>(idAt + (<usize>j << 2)));
      if (w == NONE || load<u32>(STAMP + (<usize>w << 2)) == i + 1) continue;
      store<u32>(STAMP + (<usize>w << 2), i + 1);
      join(w, price, fill);
      any = true;
    }
    if (any) join(k, price, fill);
    join(k + 1, price, fill);
  }
}

@inline function join(g: u32, price: u64, fill: bool): void {
  if (fill) put(g, price);
  else bump(g, price == 0 ? 1 : 0);
}

@inline function bump(g: u32, zero: u32): void {
  store<u32>(COUNTS + (<usize>g << 2), load<u32>(COUNTS + (<usize>g << 2)) + 1);
  store<u32>(ZEROS + (<usize>g << 2), load<u32>(ZEROS + (<usize>g << 2)) + zero);
}

@inline function put(g: u32, price: u64): void {
  const at = load<u32>(STARTS + (<usize>g << 2));
  store<u64>(valuesAt + (<usize>at << 3), price);
  store<u32>(STARTS + (<usize>g << 2), at + 1);
}

/**
 * Per block j of `b`: the fee Solana's getRecentPrioritizationFees reports for the k wanted accounts
 * (agave's prioritization fee cache): the lowest price of the block's counted transactions (not
 * votes, a nonzero compute-unit limit), raised to the highest, over the wanted accounts some of them
 * write-lock, of each account's lowest price among those. Writes a u64 per block at outPtr, then a
 * u8 per block: 1 when the block has a counted transaction (else it has no fee: the cache skips it).
 */
export function recent(b: u32, k: u32): Status {
  if (k > MAX_WANTED) return Status.TOO_MANY_PERCENTILES;
  if (b > blockCapacity) return Status.CAPACITY;
  index(k);
  const flags = outAt + (<usize>b << 3);
  for (let block: u32 = 0; block < b; block++) {
    let least = u64.MAX_VALUE;
    let any = false;
    memory.fill(STAMP, 0, <usize>k << 2);
    const last = load<u32>(blockAt + (<usize>(block + 1) << 2));
    for (let i = load<u32>(blockAt + (<usize>block << 2)); i < last; i++) {
      if (load<u8>(voteAt + <usize>i) != 0 || load<u32>(limitAt + (<usize>i << 2)) == 0) continue;
      const price = load<u64>(priceAt + (<usize>i << 3));
      any = true;
      if (price < least) least = price;
      const to = load<u32>(spanAt + (<usize>(i + 1) << 2));
      for (let j = load<u32>(spanAt + (<usize>i << 2)); j < to; j++) {
        const w = lookup(load<u32>(idAt + (<usize>j << 2)));
        if (w == NONE) continue;
        const slot = ACCOUNT_MIN + (<usize>w << 3);
        if (load<u32>(STAMP + (<usize>w << 2)) == 0 || price < load<u64>(slot)) store<u64>(slot, price);
        store<u32>(STAMP + (<usize>w << 2), 1);
      }
    }
    let fee = least;
    for (let w: u32 = 0; w < k; w++) {
      if (load<u32>(STAMP + (<usize>w << 2)) == 0) continue;
      const own = load<u64>(ACCOUNT_MIN + (<usize>w << 3));
      if (own > fee) fee = own;
    }
    store<u64>(outAt + (<usize>block << 3), any ? fee : 0);
    store<u8>(flags + <usize>block, any ? 1 : 0);
  }
  return Status.OK;
}
