/**
 * chain::priorityfee::top_txs live: the top list of the trailing 5 minutes kept up to date block by
 * block, so that the live answer and a stream push cost O(answer) and not a scan of the window. It
 * is kept once it is streamed or a live answer has been asked (a load nobody asks it of keeps no
 * list: an entry and three BigInts a kept transaction, 0.6 s of the hour's serving thread and
 * its garbage): the first live answer is the `at` answer as of the newest block, whose list is
 * kept from then on (or, when a chunk was published meanwhile, made again from the store by the
 * next chunk). An `at` answer runs a fresh tracker over the window's transactions read from the
 * store. Both take each block's entries from the transactions as the store keeps them (its best
 * fee payers, whose text is decoded only for the entries answered).
 *
 * Candidates: an entry can only ever be in the top CAP again while fewer than CAP entries that rank
 * above it will still be in the window when it leaves (entries of its own or a later block: they
 * expire no earlier). So each candidate counts such "dominators" and is dropped at CAP; of each new
 * block only its own top CAP can ever count. The list stays small (about CAP x ln(blocks in the
 * window) for random fees), ties included: order by priority fee, then slot, then index, all
 * descending. (The live list selects the window by block time; an as-of answer reads the slot range
 * from the first block at or after the window start, which is the same set as long as block times
 * do not decrease with slot, as on chain.)
 *
 * Each chunk's new list is built aside in `prepare` and published in `apply`, after the store
 * commit: a reader sees the list of the newest committed block, never one ahead of the store.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { TopTransactionRecord } from '../schema/records.js';
import { windowNanos } from '../schema/time.js';
import { NO_DEMAND, type StreamDemand, type StreamUpdate } from '../stream/updates.js';
import type { Store } from '../store/store.js';
import type { TransactionsView } from '../store/transaction-segments.js';
import { newestFeeBlock, transactionBlocksSince } from './store-queries.js';
import { topTransactionRecord, TOP_TRANSACTIONS_CAP, withSignatures, type TopEntry } from './top-transactions.js';

const METHOD = 'chain::priorityfee::top_txs';
/** The one window of the method (TOP_WINDOWS). */
export const TOP_WINDOW = '5m';
const CAP = TOP_TRANSACTIONS_CAP;

/** The top list after one block: candidates best first, each with its dominator count. */
interface TopList {
  readonly entries: readonly TopEntry[];
  readonly dominators: Int32Array;
  /** The window's end: just after the newest block with transactions; undefined before any. */
  readonly end: bigint | undefined;
}

const EMPTY: TopList = { entries: [], dominators: new Int32Array(0), end: undefined };

/** Rank order: priority fee, slot, index, all descending. */
const ranksAbove = (a: TopEntry, b: TopEntry): boolean =>
  a.fee !== b.fee ? a.fee > b.fee : a.slot !== b.slot ? a.slot > b.slot : a.index > b.index;

/** The live top list; see the module comment. */
export class TopTransactionsTracker implements ChunkObserver {
  readonly #windowNs = windowNanos(TOP_WINDOW);
  /** The list as of the newest block published; undefined while it is not kept. */
  #list: TopList | undefined;
  /** A live answer was asked: the list is kept from then on. */
  #asked = false;
  /** Chunks with transactions published: a list made from the store is kept if none was meanwhile. */
  #published = 0;

  constructor(
    private readonly demand: StreamDemand = NO_DEMAND,
    /** The engine's store, where the list starts from when first kept. */
    private readonly store: () => Store | undefined = () => undefined,
  ) {}

  /** The live answer: the best `limit` (at most CAP) of the window ending after the newest block with transactions. */
  async top(limit: number): Promise<TopTransactionRecord[]> {
    if (this.#list) return this.#answer(this.#list, limit);
    this.#asked = true;
    const published = this.#published;
    const list = await this.#fromStore();
    if (this.#published === published) this.#list = list; // still the newest: kept from now on
    return this.#answer(list, limit);
  }

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const resident = chunk.resident;
    if (!resident) return { records: [], apply() {} };
    const streamed = this.demand.has(METHOD);
    if (!this.#list && !streamed && !this.#asked) {
      // not kept: a list a query made meanwhile is one chunk old once this one is published
      return { records: [], apply: () => void (this.#published++, (this.#list = undefined)) };
    }
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    const updates: StreamUpdate[] = [];
    // kept from now on: the list as of the newest block published, from the store
    let list = this.#list ?? (await this.#fromStore());
    for (const [b, slot] of resident.columns.slots.entries()) {
      const time = times.get(slot)!;
      list = this.#next(list, blockEntries(resident, b, time), time);
      if (!streamed) continue;
      await withSignatures(list.entries, CAP);
      updates.push({ method: METHOD, slot, timestamp: time, records: this.#records(list, CAP) });
    }
    return {
      records: [],
      apply: () => {
        this.#published++;
        this.#list = list;
        return updates;
      },
    };
  }

  /** The list as of the newest block the store holds (published: a chunk joins it after its prepare). */
  async #fromStore(): Promise<TopList> {
    const started = await trackerAsOf(this.store());
    return (started ? started.#list : undefined) ?? EMPTY;
  }

  /** Follows stored blocks (an as-of answer): each block's best entries, in slot order. */
  follow(blocks: readonly { entries: readonly TopEntry[]; time: bigint }[]): void {
    for (const { entries, time } of blocks) this.#list = this.#next(this.#list ?? EMPTY, entries, time);
  }

  /** The list after a block at `time` whose best entries are `entries`. */
  #next(list: TopList, entries: readonly TopEntry[], time: bigint): TopList {
    return this.#expire(advance(list, entries), time + 1n);
  }

  /** The records of the best `limit` of `list`, their signatures read back first where they are still in their file. */
  async #answer(list: TopList, limit: number): Promise<TopTransactionRecord[]> {
    await withSignatures(list.entries, Math.min(limit, CAP));
    return this.#records(list, limit);
  }

  #records(list: TopList, limit: number): TopTransactionRecord[] {
    const { end } = list;
    if (end === undefined) return [];
    return list.entries.slice(0, Math.min(limit, CAP)).map((e) => topTransactionRecord(e, TOP_WINDOW, this.#windowNs, end));
  }

  /** The list with the window moved to end at `end`: candidates of blocks before its start dropped. */
  #expire(list: TopList, end: bigint): TopList {
    const start = end - this.#windowNs;
    const { entries, dominators } = list;
    if (!entries.some((e) => e.timestamp < start)) return { entries, dominators, end };
    const kept: TopEntry[] = [];
    const counts = new Int32Array(entries.length);
    entries.forEach((e, i) => {
      if (e.timestamp >= start) counts[kept.length] = dominators[i]!, kept.push(e);
    });
    return { entries: kept, dominators: counts.slice(0, kept.length), end };
  }
}

/**
 * The answer as of `at`: a fresh tracker run over the transactions of the window ending just after
 * the newest block with transactions before `at` (DESIGN.md 5), read from the store.
 */
export async function topTransactionsAsOf(store: Store | undefined, limit: number, at?: bigint): Promise<TopTransactionRecord[]> {
  return (await trackerAsOf(store, at))?.top(limit) ?? [];
}

/** A tracker that followed the window ending just after the newest block with transactions before `at` (the newest when omitted). */
async function trackerAsOf(store: Store | undefined, at?: bigint): Promise<TopTransactionsTracker | undefined> {
  if (!store) return undefined;
  const newest = await newestFeeBlock(store, at);
  if (!newest) return undefined;
  const blocks = await transactionBlocksSince(store, newest.timestamp + 1n - windowNanos(TOP_WINDOW), newest);
  const tracker = new TopTransactionsTracker();
  // block by block where the store holds them: the window's columns are not joined first
  tracker.follow(blocks.flatMap(({ segment, from, to }) => Array.from({ length: to - from }, (_, k) => {
    const time = segment.times[from + k]!;
    return { entries: blockEntries(segment, from + k, time), time };
  })));
  return tracker;
}

/**
 * Block b's best fee payers as top-list entries, best first: the transactions whose text the store
 * keeps (each block's best BEST_PER_BLOCK, the most the list can take from one block).
 */
function blockEntries(view: TransactionsView, b: number, time: bigint): TopEntry[] {
  const { columns, kept, keptOffsets } = view;
  const slot = columns.slots[b]!;
  const entries: TopEntry[] = [];
  for (let k = keptOffsets[b]!; k < keptOffsets[b + 1]!; k++) {
    const i = kept[k]!;
    entries.push({ view, k, slot, index: columns.index[i]!, timestamp: time, fee: columns.priorityFee[i]!, texts: undefined });
  }
  return entries;
}

/** The list after a block whose best entries (best first, in a slot above every candidate's) are `entries`. */
function advance(list: TopList, entries: readonly TopEntry[]): TopList {
  if (entries.length === 0) return list;
  // a new block's entries rank above a candidate when their fee is at least its fee (their slot is higher)
  const kept: number[] = [];
  const counts: number[] = [];
  list.entries.forEach((c, k) => {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid]!.fee >= c.fee) lo = mid + 1;
      else hi = mid;
    }
    const dominators = list.dominators[k]! + lo;
    if (dominators < CAP) kept.push(k), counts.push(dominators);
  });
  const merged: TopEntry[] = [];
  const dominators = new Int32Array(kept.length + entries.length);
  let i = 0;
  let j = 0;
  while (i < kept.length || j < entries.length) {
    const fromKept = j >= entries.length || (i < kept.length && ranksAbove(list.entries[kept[i]!]!, entries[j]!));
    dominators[merged.length] = fromKept ? counts[i]! : j; // a fresh entry is dominated by the block's entries above it
    merged.push(fromKept ? list.entries[kept[i++]!]! : entries[j++]!);
  }
  return { entries: merged, dominators, end: list.end };
}
