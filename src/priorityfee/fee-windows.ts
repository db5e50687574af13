/**
 * chain::priorityfee::fee: tumbling windows aligned to multiples of their length since the epoch
 * (DESIGN.md 5), percentiles exact over every sample of the window (never merged from per-block
 * percentiles).
 *
 * A window in progress holds the spans of resident columns its blocks are in (the chunks' columns
 * as the store keeps them, shared with it: no copy of the samples) and its counters, kept block by
 * block. A window is computed once, when the next one begins, its samples gathered from those
 * spans, and committed to the store (window_fees), the newest closed windows kept in memory too
 * (every one until the store starts its database). Only for the lengths whose closed windows were
 * asked (a query listing more than the window in progress), streamed, or (before retention first
 * prunes, as for the recommendations) all: another length's closed windows wait as their spans and
 * counters until a query first lists them, which makes them then, as of what was published when it
 * was asked (it never waits for a commit). The window in progress is computed on demand,
 * exact at every moment. A chunk's prepare advances the open windows while queries may run between
 * its stages, so a query reads the windows as the last apply published them (a copy of their
 * counters and of their list of spans), never a block not yet published. An as-of query inside an
 * older window gathers that window's part up to the as-of block from the store's resident
 * transactions, with the same code, and reads the closed windows before it from memory when it
 * holds them.
 */
import type { FeeColumns } from '../ingest/fee-columns.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { FeeStatsKernels } from '../kernels/client.js';
import type { SampleStats } from '../kernels/fees.js';
import { runToEnd, TimeSlices } from '../platform/event-loop.js';
import { recordId } from '../schema/ids.js';
import { WindowFees, type WindowFeesRecord } from '../schema/records.js';
import { FEE_WINDOWS, windowNanos } from '../schema/time.js';
import { recordTableName } from '../store/ddl.js';
import { rowToRecord } from '../store/record-arrow.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { NO_DEMAND, type StreamDemand, type StreamUpdate } from '../stream/updates.js';
import { RecentRecords } from '../windows/recent-records.js';
import { windowStart } from '../windows/time-windows.js';
import { addCounters, blockCounters, gatherSamples, withBlock, zeroCounters, type BlockSpan, type FeeCounters } from './fee-samples.js';
import { FeeWindowStats } from './fee-window-stats.js';
import { recordsFrom, sinceCut, type PruneListener } from '../store/retention.js';
import { newestFeeBlock, transactionBlocksSince, type BlockRef } from './store-queries.js';

const METHOD = 'chain::priorityfee::fee';
/** Closed windows answered from memory, per window length (the method's largest limit). */
const RECENT = 1000;
const startOf = (r: WindowFeesRecord): bigint => r.window_start;
const TABLE = recordTableName(WindowFees);
/** Chunks of at most this many blocks keep the windows in progress asked live up block by block (live ingest, a replay's commits). */
const LIVE_CHUNK_BLOCKS = 16;

/** A window in progress's incremental statistics (streamed or asked live), from the window's start. */
interface IncrementalWindow {
  start: bigint;
  stats: FeeWindowStats;
}

interface OpenWindow {
  start: bigint;
  /** Where its blocks' transactions are. */
  spans: BlockSpan[];
  counters: FeeCounters;
  lastSlot: bigint;
  lastTimestamp: bigint;
}

/** Builds the record of one window from its blocks' spans (statistics by the kernel worker) and counters. */
async function windowFeesRecord(
  kernels: FeeStatsKernels, window: string, start: bigint, counters: FeeCounters, lastTimestamp: bigint, spans: readonly BlockSpan[],
  minSamples: number,
): Promise<WindowFeesRecord> {
  const samples = await new TimeSlices().run(gatherSamples(spans));
  return windowFeesRecordOf(await kernels.sampleStats(samples), window, start, counters, lastTimestamp, minSamples);
}

/** The record of one window from its sample statistics and counters. */
function windowFeesRecordOf(
  sampleStats: SampleStats, window: string, start: bigint, counters: FeeCounters, lastTimestamp: bigint, minSamples: number,
): WindowFeesRecord {
  const w = windowNanos(window);
  const stats = sampleStats as Record<string, unknown>;
  const values: Record<string, unknown> = {
    ...stats,
    id: recordId('chain::priorityfee::fee', window, start),
    window_start: start,
    window_end: start + w,
    timestamp: lastTimestamp,
    window_duration: w,
    tx_count: counters.txCount,
    no_priority_tx_count: counters.noPriorityTxCount,
    total_tx_count: counters.totalTxCount,
    total_priority_fees: counters.totalPriorityFees,
    data_points: counters.txCount,
    is_valid: counters.txCount >= minSamples,
  };
  return Object.fromEntries(WindowFees.fields.map(([name]) => [name, values[name]])) as WindowFeesRecord;
}

/** Pending windows of a length and their records, made as of when they were taken from the pending ones. */
interface MadeWindows {
  readonly window: string;
  readonly pending: readonly Readonly<OpenWindow>[];
  readonly records: readonly WindowFeesRecord[];
}

/** The window (FEE_WINDOWS' name) of a record. */
const windowOf = (record: WindowFeesRecord): string => FEE_WINDOWS.find((w) => windowNanos(w) === record.window_duration)!;

export class FeeWindowsEngine implements ChunkObserver, PruneListener {
  /** The windows in progress, advanced by prepare. */
  readonly #open = new Map<string, OpenWindow>();
  /** The lengths whose windows are made as they close (a chunk reads this set when it starts). */
  readonly #eager = new Set<string>();
  /**
   * Per length, its closed windows not made yet, oldest first, as published: all newer than its
   * closed windows made (a length's windows are made oldest first, and only once none is pending).
   */
  readonly #pending = new Map<string, Readonly<OpenWindow>[]>(FEE_WINDOWS.map((w) => [w, []]));
  /** A pending window's record being made: made once, whoever needs it first (a query, a chunk, a prune). */
  readonly #making = new WeakMap<Readonly<OpenWindow>, Promise<WindowFeesRecord>>();
  /** The windows in progress as queries see them: as of the last apply. */
  #published = new Map<string, Readonly<OpenWindow>>();
  #cache = new Map<string, { slot: bigint; record: WindowFeesRecord }>();
  /** The newest closed windows, per window. */
  readonly #closed = new Map<string, RecentRecords<WindowFeesRecord>>(FEE_WINDOWS.map((w) => [w, new RecentRecords(RECENT)]));
  /** The windows in progress kept incrementally: while streamed, or asked live in chunks of a few blocks. */
  readonly #incremental = new Map<string, IncrementalWindow>();
  /** The lengths whose window in progress a live answer has asked for. */
  readonly #askedLive = new Set<string>();
  #newestSlot: bigint | undefined;

  constructor(
    private readonly kernels: FeeStatsKernels,
    private readonly minSamples: () => number,
    private readonly demand: StreamDemand = NO_DEMAND,
    /** The engine's store: while its database has not started, memory keeps every closed window. */
    private readonly store: () => Store | undefined = () => undefined,
  ) {}

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const columns = chunk.feeColumns;
    if (!columns) return { records: [], apply() {} };
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    const closed: WindowFeesRecord[] = [];
    const streamed = FEE_WINDOWS.filter((w) => this.demand.windows(METHOD).has(w));
    // the windows in progress kept up block by block: those streamed, and those asked live while
    // blocks come a few at a time (live ingest: each answer then costs no kernel call; a load's
    // chunks would pay the window's order statistics for every block, and recompute it when asked)
    const kept = FEE_WINDOWS.filter((w) => streamed.includes(w) || (this.#askedLive.has(w) && columns.slots.length <= LIVE_CHUNK_BLOCKS));
    for (const window of this.#incremental.keys()) if (!(kept as readonly string[]).includes(window)) this.#incremental.delete(window);
    for (const window of streamed) this.#eager.add(window);
    const eager = new Set(this.#eager);
    // a window's order statistics after a block take up to a millisecond: requests are let in between
    const slices = new TimeSlices();
    // an eager length's windows closed while it was not: made first, published before the chunk's own
    const caughtUp: MadeWindows[] = [];
    for (const window of eager) caughtUp.push(await this.#makePending(window));
    const pendingNow = new Map<string, OpenWindow[]>();
    const updates: StreamUpdate[] = [];
    const current = new Map<string, WindowFeesRecord>();
    for (let b = 0; b < columns.slots.length; b++) {
      const slot = columns.slots[b];
      const time = times.get(slot)!;
      const closedNow = await this.#addBlock(columns, b, slot, time, eager, pendingNow, slices);
      closed.push(...closedNow);
      if (kept.length === 0) continue;
      // a streamed window pushes its state after every block, and the window this block closed
      const records: WindowFeesRecord[] = [];
      for (const window of kept) {
        const record = await this.#incrementalRecord(window, this.#open.get(window)!, columns, b, slices);
        current.set(window, record);
        if (streamed.includes(window)) records.push(record, ...closedNow.filter((r) => r.window_duration === windowNanos(window)));
      }
      if (records.length > 0) updates.push({ method: METHOD, slot, timestamp: time, records });
    }
    const published = new Map([...this.#open].map(([window, open]): [string, OpenWindow] => [
      window, { ...open, counters: { ...open.counters }, spans: open.spans.slice() },
    ]));
    return {
      records: closed.length ? [{ schema: WindowFees, records: closed }] : [],
      apply: () => {
        this.#published = published;
        this.#newestSlot = columns.slots.at(-1);
        for (const made of caughtUp) this.#publish(made);
        const keepAll = this.store()?.started === false;
        for (const record of closed) this.#closed.get(windowOf(record))!.push([record], keepAll);
        for (const [window, opens] of pendingNow) this.#pending.get(window)!.push(...opens);
        for (const [window, record] of current) this.#cache.set(window, { slot: this.#newestSlot!, record });
        return updates;
      },
    };
  }

  /** Adds block b; the windows it closes are made (eager lengths) or left in `pending`. */
  async #addBlock(
    columns: FeeColumns, b: number, slot: bigint, time: bigint, eager: ReadonlySet<string>, pending: Map<string, OpenWindow[]>,
    slices: TimeSlices,
  ): Promise<WindowFeesRecord[]> {
    const closed: WindowFeesRecord[] = [];
    for (const [window, open] of this.#open) {
      if (windowStart(time, windowNanos(window)) !== open.start) {
        if (eager.has(window)) closed.push(await this.#closedIncrementally(window, open, slices) ?? await this.#record(window, open));
        else if (pending.has(window)) pending.get(window)!.push(open);
        else pending.set(window, [open]);
        this.#open.delete(window);
      }
    }
    for (const window of FEE_WINDOWS) {
      if (!this.#open.has(window)) {
        this.#open.set(window, { start: windowStart(time, windowNanos(window)), spans: [], counters: zeroCounters(), lastSlot: slot, lastTimestamp: time });
      }
    }
    const counters = blockCounters(columns, b);
    for (const open of this.#open.values()) {
      withBlock(open.spans, columns, b);
      addCounters(open.counters, counters);
      open.lastSlot = slot;
      open.lastTimestamp = time;
    }
    return closed;
  }

  /** The record of a window kept incrementally after its newest block, b of `columns`: its statistics take that block's samples only. */
  async #incrementalRecord(window: string, open: OpenWindow, columns: FeeColumns, b: number, slices: TimeSlices): Promise<WindowFeesRecord> {
    let kept = this.#incremental.get(window);
    if (kept?.start !== open.start) {
      // kept from now on: every block of the window so far (in the sets of the window before, when there was one)
      const stats = kept?.stats ?? new FeeWindowStats();
      stats.clear();
      kept = { start: open.start, stats };
      this.#incremental.set(window, kept);
      kept.stats.add(await slices.run(gatherSamples(open.spans)));
    } else kept.stats.add(runToEnd(gatherSamples([{ columns, from: b, to: b + 1 }])));
    return this.#recordFrom(kept, window, open, slices);
  }

  /** The record of window `open` from its incremental statistics as they stand. */
  async #recordFrom(kept: IncrementalWindow, window: string, open: Readonly<OpenWindow>, slices: TimeSlices): Promise<WindowFeesRecord> {
    const stats = await slices.run(kept.stats.statsSteps());
    return windowFeesRecordOf(stats, window, open.start, open.counters, open.lastTimestamp, this.minSamples());
  }

  /**
   * The record of window `open`, just closed, from its incremental statistics when they were kept
   * up to its last block (the window was kept in this chunk and in every one since it began, or
   * since they were made whole from its spans); else undefined. A streamed hour closed this way
   * costs nothing; gathered again for the kernel worker it was a copy of every sample of the hour
   * (~200 MB on the mainnet profile), which grew that worker's memory to the largest hour seen.
   */
  async #closedIncrementally(window: string, open: Readonly<OpenWindow>, slices: TimeSlices): Promise<WindowFeesRecord | undefined> {
    const kept = this.#incremental.get(window);
    return kept?.start === open.start ? this.#recordFrom(kept, window, open, slices) : undefined;
  }

  async #record(window: string, open: Readonly<OpenWindow>): Promise<WindowFeesRecord> {
    return windowFeesRecord(this.kernels, window, open.start, open.counters, open.lastTimestamp, open.spans, this.minSamples());
  }

  /**
   * The pending windows of `window` (as published when called, unless given) and their records,
   * oldest first: each made once, whoever needs it first; two in flight at most.
   */
  async #makePending(window: string, pending = this.#pending.get(window)!.slice()): Promise<MadeWindows> {
    const making = (open: Readonly<OpenWindow>) => {
      let record = this.#making.get(open);
      if (!record) {
        record = this.#record(window, open);
        this.#making.set(open, record);
        record.catch(() => this.#making.delete(open)); // a failure is the caller's; the next one tries again
      }
      return record;
    };
    const records: WindowFeesRecord[] = [];
    // one window ahead: its samples are gathered here while the kernel worker computes the one before
    let next = pending.length > 0 ? making(pending[0]!) : undefined;
    for (let k = 0; k < pending.length; k++) {
      const record = next!;
      next = k + 1 < pending.length ? making(pending[k + 1]!) : undefined;
      records.push(await record);
    }
    return { window, pending, records };
  }

  /**
   * Moves made windows from the pending ones to the closed ones, and writes them to the store: those
   * still pending, from the oldest (another query or a chunk may have moved some already).
   */
  #publish({ window, pending, records }: MadeWindows): void {
    const list = this.#pending.get(window)!;
    const from = list.length > 0 ? pending.indexOf(list[0]!) : -1;
    if (from < 0) return;
    let n = 0;
    while (n < list.length && from + n < pending.length && list[n] === pending[from + n]) n++;
    list.splice(0, n);
    const made = records.slice(from, from + n);
    this.#closed.get(window)!.push(made, this.store()?.started === false);
    // a write nobody waits for: a failure fails the store, and every later call says so
    void this.store()?.appendRecords([{ schema: WindowFees, records: made }], { behind: true }).catch(() => undefined);
  }

  /**
   * Before retention first prunes: every length becomes eager and its pending windows are made and
   * published, so that nothing needs the pruned transactions later (runs in the pipeline's queue).
   */
  async beforePrune(): Promise<void> {
    for (const window of FEE_WINDOWS) {
      this.#eager.add(window);
      this.#publish(await this.#makePending(window));
    }
  }

  /** The published window in progress, computed at most once per block. */
  async #inProgress(window: string): Promise<WindowFeesRecord | undefined> {
    const open = this.#published.get(window);
    if (!open) return undefined;
    const cached = this.#cache.get(window);
    if (cached?.slot === open.lastSlot) return cached.record;
    const record = await this.#record(window, open);
    if (this.#published.get(window) !== open) return record; // a chunk was published meanwhile: do not cache
    this.#cache.set(window, { slot: open.lastSlot, record });
    return record;
  }

  /** The newest `limit` windows as of `at` (live when omitted), newest first, down to retention's cut. */
  async windows(store: Store | undefined, window: string, limit: number, at?: bigint): Promise<WindowFeesRecord[]> {
    if (!store || this.#newestSlot === undefined) return [];
    const cut = recordsFrom(store, at);
    const list = await this.#windowsAsOf(store, window, limit, at);
    return sinceCut(list, cut, (r) => r.window_end - 1n);
  }

  async #windowsAsOf(store: Store, window: string, limit: number, at: bigint | undefined): Promise<WindowFeesRecord[]> {
    if (at === undefined) this.#askedLive.add(window);
    // an answer listing closed windows makes the length eager, and those pending as published now
    const pending = limit > 1 ? this.#pending.get(window)!.slice() : [];
    if (limit > 1) this.#eager.add(window);
    const newest = at === undefined ? undefined : await newestFeeBlock(store, at);
    if (at !== undefined && !newest) return [];
    const live = newest === undefined || newest.slot === this.#newestSlot;
    const current = live ? await this.#inProgress(window) : await this.#partial(store, window, newest!);
    if (!current || limit <= 1) return current ? [current] : [];
    const made = await this.#makePending(window, pending);
    this.#publish(made);
    // the closed windows before it, newest first: those just made (newer than any made before), then
    // the others, before the oldest of those (chunks published meanwhile closed only newer ones)
    const before = made.records.filter((r) => r.window_start < current.window_start);
    const newer = before.slice(-(limit - 1)).reverse();
    const more = limit - 1 - newer.length;
    if (more === 0) return [current, ...newer];
    const bound = before[0]?.window_start ?? current.window_start;
    // from memory when it holds them (every one until the database starts)
    const closed = this.#closed.get(window)!;
    const held = closed.last(more, closed.before(startOf, bound))?.reverse();
    if (held) return [current, ...newer, ...held];
    const rows = await store.rows(
      `SELECT * FROM ${TABLE} WHERE window_duration = ${sqlInteger(windowNanos(window))}` +
        ` AND window_start < ${sqlInteger(bound)} ORDER BY window_start DESC LIMIT ${more}`,
    );
    return [current, ...newer, ...rows.map((row) => rowToRecord(WindowFees, row))];
  }

  /** The window holding `block`, over its blocks up to and including `block`, from the stored transactions. */
  async #partial(store: Store, window: string, block: BlockRef): Promise<WindowFeesRecord> {
    const start = windowStart(block.timestamp, windowNanos(window));
    // the blocks where the store holds them: a long window's columns are not joined first, only its samples taken
    const spans = (await transactionBlocksSince(store, start, block)).map(({ segment, from, to }) => ({ columns: segment.columns, from, to }));
    const counters = zeroCounters();
    for (const { columns, from, to } of spans) for (let b = from; b < to; b++) addCounters(counters, blockCounters(columns, b));
    return windowFeesRecord(this.kernels, window, start, counters, block.timestamp, spans, this.minSamples());
  }
}
