/**
 * chain::priorityfee::recommendation (DESIGN.md 6): one data point per block with transactions and
 * RECO window, over the trailing window ending just after the block.
 *
 * Computed when asked, not at ingest: the seven windows slide exact order statistics over every
 * fee-paying transaction (recommendation-window.ts), which made this the costliest part of a load
 * when done eagerly for every window and block. A window goes live (its sliding state takes every
 * new block in `prepare`) once it is queried or streamed. The points a query needs that were never
 * made are computed then, between commits, by sliding a fresh window over the store's resident
 * transactions, and committed to the store like the live points. Retention prunes transactions, so
 * before it first does, every point is made and every window goes live (`beforePrune`): as-of
 * answers stay whole. An engine that keeps everything never pays for history nobody asks. Windows
 * slide in time slices (platform/event-loop.ts), letting requests in between: a block moves
 * milliseconds of samples through each live window.
 *
 * Reading back: the newest points of a live window are kept in memory, and every point made until
 * the store starts its database (which then holds them; memory made them first): an as-of answer
 * reads the store's recommendation table only once the database has started.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { EngineSettings } from '../methods/context.js';
import { TimeSlices } from '../platform/event-loop.js';
import { Recommendation, type RecommendationRecord } from '../schema/records.js';
import { RECO_WINDOWS, windowNanos } from '../schema/time.js';
import { recordTableName } from '../store/ddl.js';
import { rowToRecord } from '../store/record-arrow.js';
import { sqlInteger } from '../store/sql.js';
import { recordsFrom, sinceCut } from '../store/retention.js';
import type { Store } from '../store/store.js';
import { NO_DEMAND, type StreamDemand, type StreamUpdate } from '../stream/updates.js';
import { lowerBound } from '../windows/lower-bound.js';
import { RecentRecords } from '../windows/recent-records.js';
import { Spans } from '../windows/spans.js';
import { blockPart, RecommendationWindows } from './recommendation-window.js';

const METHOD = 'chain::priorityfee::recommendation';
const TABLE = recordTableName(Recommendation);
/** Newest points of a live window kept in memory (the method's largest limit). */
const RECENT = 1000;
/** Blocks whose transactions are read from the store at a time while a history is computed. */
const PASS_BLOCKS = 256;

const NOTHING: ChunkEffect = { records: [], apply() {} };

/** Runs a task between commits (the ingest pipeline's queue): no chunk is prepared or published meanwhile. */
export type BetweenCommits = <T>(task: () => Promise<T> | T) => Promise<T>;

/** Every committed block with transactions, in slot order: what a window's points are computed from. */
class FeeBlocks {
  readonly slots: bigint[] = [];
  readonly times: bigint[] = [];
  readonly cuLimits: bigint[] = [];

  get length(): number {
    return this.slots.length;
  }

  push(slot: bigint, time: bigint, cuLimit: bigint): void {
    this.slots.push(slot);
    this.times.push(time);
    this.cuLimits.push(cuLimit);
  }

  /** Blocks with time < t (block times do not decrease with slot). */
  countBefore(t: bigint): number {
    return lowerBound(this.times, t);
  }
}

/** One window's points: which blocks have theirs, and whether the window is live. */
interface WindowHistory {
  readonly window: string;
  readonly length: bigint;
  /** Block indexes whose points are made (committed to the store). */
  readonly done: Spans;
  /** Whether the live state slides this window (its points made with every new block). */
  live: boolean;
  /** The newest points of the live window: complete when it went live at the first block. */
  recent: RecentRecords<RecommendationRecord>;
  /** Every point made, by block index, until the database starts (then undefined: it answers). */
  made?: (RecommendationRecord | undefined)[];
}

export class RecommendationsEngine implements ChunkObserver {
  readonly #blocks = new FeeBlocks();
  readonly #windows = new Map<string, WindowHistory>(
    RECO_WINDOWS.map((w) => [w, { window: w, length: windowNanos(w), done: new Spans(), live: false, recent: new RecentRecords(RECENT), made: [] }]),
  );
  /** The live windows' sliding state after the newest committed block, and their histories in its order. */
  #live?: { windows: RecommendationWindows; histories: WindowHistory[] };

  /**
   * `store` gives the engine's store (undefined before the first ingest); `betweenCommits` runs a
   * query's computation in the pipeline's queue; `demand` says which windows are streamed (live from
   * their subscription on).
   */
  constructor(
    private readonly settings: Readonly<EngineSettings>,
    private readonly store: () => Store | undefined,
    private readonly betweenCommits: BetweenCommits,
    private readonly demand: StreamDemand = NO_DEMAND,
  ) {}

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const columns = chunk.feeColumns;
    if (!columns) return NOTHING;
    const streamed = this.demand.windows(METHOD);
    const wanted = [...streamed].map((w) => this.#windows.get(w)!).filter((h) => !h.live);
    if (wanted.length > 0) await this.#goLive(wanted, this.#blocks.length);
    const state = this.#live;
    const live = state?.histories ?? [];
    const blocks = new Map(chunk.blocks.map((b) => [b.slot, b]));
    const added: { slot: bigint; time: bigint; cuLimit: bigint }[] = [];
    const made = new Map<WindowHistory, RecommendationRecord[]>(live.map((h) => [h, []]));
    const updates: StreamUpdate[] = [];
    const slices = new TimeSlices();
    for (let b = 0; b < columns.slots.length; b++) {
      const block = blocks.get(columns.slots[b])!;
      const cuLimit = block.cuLimit ?? BigInt(this.settings.blockCuLimit);
      added.push({ slot: block.slot, time: block.timestamp, cuLimit });
      if (live.length === 0) continue;
      const part = blockPart(columns, b, cuLimit);
      const points = await slices.run(state!.windows.advance(part, block.slot, block.timestamp, this.settings));
      const pushed = live.flatMap((history, w) => {
        made.get(history)!.push(points[w]);
        return streamed.has(history.window) ? [points[w]] : [];
      });
      if (pushed.length > 0) updates.push({ method: METHOD, slot: block.slot, timestamp: block.timestamp, records: pushed });
    }
    const all = [...made.values()].flat();
    return {
      records: all.length ? [{ schema: Recommendation, records: all }] : [],
      apply: () => {
        const first = this.#blocks.length;
        for (const { slot, time, cuLimit } of added) this.#blocks.push(slot, time, cuLimit);
        for (const [history, records] of made) {
          history.done.add(first, this.#blocks.length);
          history.recent.push(records);
          this.#remember(history, first, records);
        }
        return updates;
      },
    };
  }

  /** The newest `limit` points of `window` as of `at` (live when omitted), newest first, down to retention's cut. */
  async recommendations(store: Store | undefined, window: string, limit: number, at?: bigint): Promise<RecommendationRecord[]> {
    if (!store) return [];
    const cut = recordsFrom(store, at);
    const points = await this.#pointsAsOf(store, window, limit, at);
    return sinceCut(points, cut, (r) => r.timestamp);
  }

  async #pointsAsOf(store: Store, window: string, limit: number, at: bigint | undefined): Promise<RecommendationRecord[]> {
    const history = this.#windows.get(window)!;
    // the answer is as of the blocks published at the call, even when its points are made after a
    // commit in progress (so that it agrees with the other answers of its batch)
    const end = at === undefined ? this.#blocks.length : this.#blocks.countBefore(at);
    if (this.#missing(history, limit, at, end)) {
      return this.betweenCommits(async () => {
        await this.#make(history, limit, at, end);
        return this.#read(store, history, limit, at, end);
      });
    }
    return this.#read(store, history, limit, at, end);
  }

  /**
   * Before retention first prunes: makes every point not made yet and puts every window live, so
   * nothing needs the pruned transactions later (a live window holds its own samples, and the
   * longest window outlasts the shortest retention). Runs in the pipeline's queue.
   */
  async beforePrune(): Promise<void> {
    for (const history of this.#windows.values()) {
      for (const [from, to] of history.done.missing(0, this.#blocks.length)) await this.#fill(history, from, to);
    }
    const idle = [...this.#windows.values()].filter((h) => !h.live);
    if (idle.length > 0) await this.#goLive(idle, this.#blocks.length);
  }

  /** Block indexes [from, end) of the points an answer as of block index `end` needs. */
  #needed(limit: number, end: number): [number, number] {
    return [Math.max(0, end - limit), end];
  }

  /** Whether the answer needs points not made yet (or the window to go live). */
  #missing(history: WindowHistory, limit: number, at: bigint | undefined, end: number): boolean {
    if (at === undefined && !history.live) return true;
    return !history.done.covers(...this.#needed(limit, end));
  }

  /** Makes the points the answer needs; a live answer puts the window live. Runs between commits. */
  async #make(history: WindowHistory, limit: number, at: bigint | undefined, end: number): Promise<void> {
    const [from] = this.#needed(limit, end);
    if (at === undefined && !history.live) return this.#goLive([history], from);
    for (const [a, b] of history.done.missing(from, end)) await this.#fill(history, a, b);
  }

  /** The answer as of block index `end`: the newest `limit` points before it, newest first. */
  async #read(store: Store, history: WindowHistory, limit: number, at: bigint | undefined, end: number): Promise<RecommendationRecord[]> {
    // a live window's newest points are those of the newest blocks: those published since the call left out
    const since = this.#blocks.length - end;
    const live = at === undefined && history.live && since <= history.recent.size
      ? history.recent.last(limit, history.recent.size - since)?.reverse() : undefined;
    if (live) return live;
    const held = history.made && madePoints(history.made, ...this.#needed(limit, end));
    if (held) return held;
    const asOf = at !== undefined ? ` AND "timestamp" < ${sqlInteger(at)}`
      : since > 0 && end > 0 ? ` AND "timestamp" <= ${sqlInteger(this.#blocks.times[end - 1]!)}` : '';
    const rows = await store.rows(
      `SELECT * FROM ${TABLE} WHERE window_duration = ${sqlInteger(history.length)}${asOf}` +
        ` ORDER BY "timestamp" DESC, window_end DESC LIMIT ${limit}`,
    );
    return rows.map((row) => rowToRecord(Recommendation, row));
  }

  /**
   * Puts windows live at the newest committed block, making their points of blocks from..newest
   * (at least the newest's). The windows live share one sliding state, made anew with the new ones
   * (slid over the store's transactions, which retention has not pruned yet: before it first does,
   * every window goes live).
   */
  async #goLive(histories: readonly WindowHistory[], from: number): Promise<void> {
    from = Math.min(from, Math.max(0, this.#blocks.length - 1));
    const { windows, points } = await this.#slide([...(this.#live?.histories ?? []), ...histories], from, this.#blocks.length);
    const live = windows.lengths.map(({ window }) => this.#windows.get(window)!);
    live.forEach((history, w) => {
      if (!histories.includes(history)) return; // live already: its points are made
      this.#commit(points[w].filter((_, i) => !history.done.covers(from + i, from + i + 1)));
      this.#remember(history, from, points[w]);
      history.done.add(from, this.#blocks.length);
      history.live = true;
      history.recent = new RecentRecords(RECENT, from === 0);
      history.recent.push(points[w]);
    });
    this.#live = { windows, histories: live };
  }

  /** Makes the points of blocks [from, to) with a window of their own. */
  async #fill(history: WindowHistory, from: number, to: number): Promise<void> {
    const { points: [points] } = await this.#slide([history], from, to);
    this.#commit(points);
    this.#remember(history, from, points);
    history.done.add(from, to);
  }

  /** Keeps the points of blocks from.. in memory while the database has not started; forgets them all once it has. */
  #remember(history: WindowHistory, from: number, points: readonly RecommendationRecord[]): void {
    if (this.store()?.started !== false) history.made = undefined;
    else if (history.made) points.forEach((point, i) => (history.made![from + i] = point));
  }

  /**
   * Fresh windows slid over the blocks [from, to) (after the blocks before `from` that their first
   * points' windows hold), from the store's transactions; each window's points of [from, to), in
   * the order of the state's `lengths`.
   */
  async #slide(histories: readonly WindowHistory[], from: number, to: number): Promise<{ windows: RecommendationWindows; points: RecommendationRecord[][] }> {
    const windows = new RecommendationWindows(histories);
    const points = histories.map((): RecommendationRecord[] => []);
    if (from >= to) return { windows, points };
    const blocks = this.#blocks;
    const store = this.store()!;
    const first = blocks.countBefore(blocks.times[from]! + 1n - windows.lengths.at(-1)!.length);
    const slices = new TimeSlices();
    for (let i = first; i < to; i += PASS_BLOCKS) {
      const j = Math.min(to, i + PASS_BLOCKS);
      // the blocks where the store holds them (no copy)
      const ranges = await store.transactionBlocks(blocks.slots[i]!, blocks.slots[j - 1]!);
      if (ranges.reduce((n, r) => n + r.to - r.from, 0) !== j - i) {
        throw new Error(`recommendation: the transactions of slots ${blocks.slots[i]}..${blocks.slots[j - 1]} are no longer held`);
      }
      let k = i;
      for (const { segment: { columns }, from: f, to: t } of ranges) {
        for (let b = f; b < t; b++, k++) {
          const part = blockPart(columns, b, blocks.cuLimits[k]!);
          if (k < from) await slices.run(windows.add(part, blocks.times[k]!));
          else (await slices.run(windows.advance(part, blocks.slots[k]!, blocks.times[k]!, this.settings))).forEach((point, w) => points[w].push(point));
        }
      }
    }
    return { windows, points };
  }

  /** Queues the points' write (not awaited: a store read queued after it sees them). */
  #commit(points: readonly RecommendationRecord[]): void {
    if (points.length > 0) void this.store()!.appendRecords([{ schema: Recommendation, records: points }], { behind: true });
  }

}

/** The points of blocks [from, end), newest first, or undefined when one is not held. */
function madePoints(made: readonly (RecommendationRecord | undefined)[], from: number, end: number): RecommendationRecord[] | undefined {
  const points: RecommendationRecord[] = [];
  for (let i = end - 1; i >= from; i--) {
    const point = made[i];
    if (point === undefined) return undefined;
    points.push(point);
  }
  return points;
}
