/**
 * Retention (engine option `retain`, replay option `retain`): how much history the engine keeps
 * behind the newest block. The raw transactions are nearly all of the store's memory (about 40
 * bytes each), then the trades and the market's per-pair blocks and candles; no live answer reads
 * further back than 5 minutes of transactions, and the method engines keep their live windows in
 * memory.
 *
 * By default an engine keeps everything, so as-of queries reach the first block. With `retain: R`
 * the cut moves, as blocks arrive, to the newest block's time minus R (in steps of at most a minute
 * of chain time, so a prune runs once per step, not per block): the store drops the transactions
 * before it and the method records of those blocks, and the listeners drop their own history (the
 * market's blocks, candles and trades, market/engine.ts), so
 * memory is bounded by R and the live windows, not by the data. An answer that would need pruned
 * history is refused (-32602, `prunedHistory`), never answered from part of it. A replay brings its
 * own retention for its duration; the shortest in force wins.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { invalidParam, type RpcError } from '../rpc/errors.js';
import { durationNanos, NS_PER_SECOND } from '../schema/time.js';
import type { Store } from './store.js';

/** The shortest retention: the longest span of transactions a live answer reads (the top_txs window). */
export const MIN_RETAIN_NS = 300n * NS_PER_SECOND;
const MAX_STEP_NS = 60n * NS_PER_SECOND;

const NO_EFFECT: ChunkEffect = { records: [], apply: () => undefined };

/** A retention option as nanoseconds: seconds or "15m", "2h", "1d", at least 5 minutes; "all" (or undefined) keeps everything. */
export function retainNanos(value: number | string | undefined): bigint | undefined {
  if (value === undefined || value === 'all') return undefined;
  const ns = durationNanos(value);
  if (ns < MIN_RETAIN_NS) {
    throw new RangeError(`retain must be at least ${MIN_RETAIN_NS / NS_PER_SECOND} s (the longest span of transactions a live answer reads)`);
  }
  return ns;
}

/** State that retention prunes beside the store's rows, or that must be made before they go. */
export interface PruneListener {
  /** Makes whatever needs the transactions about to be pruned; runs in the pipeline's queue. */
  beforePrune?(): Promise<void>;
  /** Drops its own history before `cutNs`; called when the chunk that moved the cut is published. */
  pruned?(cutNs: bigint): void;
}

const unixSeconds = (ns: bigint) => Number(ns / 1_000_000n) / 1000;

/**
 * The refusal of an answer that needs history retention has pruned (-32602 on `param`; never a
 * partial answer): `what` the answer reads (transactions, market blocks, trades), from `from` on or
 * before `before`, and the cut.
 */
export function prunedHistory(param: string, what: string, need: { from: bigint } | { before: bigint }, cutNs: bigint): RpcError {
  const needs = 'from' in need ? `from ${unixSeconds(need.from)} (Unix s) on` : `before ${unixSeconds(need.before)} (Unix s)`;
  return invalidParam(param, `the answer needs the ${what} ${needs}, but those before ${unixSeconds(cutNs)} were pruned (retain option)`);
}

/**
 * The cut of the method records (docs/semantics.md, Retention): those of blocks before it are
 * dropped with the transactions, so a list of them ends there, and an answer as of a time at or
 * before it is refused (-32602 on `at`). Undefined when nothing was cut.
 */
export function recordsFrom(store: Store, at?: bigint): bigint | undefined {
  const cut = store.prunedBefore;
  if (cut !== undefined && at !== undefined && at <= cut) throw prunedHistory('at', 'records', { before: at }, cut);
  return cut;
}

/**
 * The entries of a record list (newest first) that the cut keeps: those whose `time` is at or after
 * it (a block's time; a fee window's last nanosecond, so one that ended by the cut goes, as
 * `CUT_ROWS` deletes it). The list ends at the cut, whether memory or the database gave it.
 */
export function sinceCut<R>(records: R[], cut: bigint | undefined, time: (record: R) => bigint): R[] {
  return cut === undefined ? records : records.filter((record) => time(record) >= cut);
}

/** Prunes the store's transactions behind the newest block; see the module comment. */
export class Retention implements ChunkObserver {
  readonly #engineNs: bigint | undefined;
  /** Retentions in force while replays run. */
  readonly #held = new Set<{ readonly ns: bigint }>();
  /** The first chunk's time: a cut before it would drop nothing. */
  #first: bigint | undefined;

  constructor(
    engineNs: bigint | undefined,
    private readonly store: () => Store | undefined,
    private readonly listeners: readonly PruneListener[] = [],
  ) {
    this.#engineNs = engineNs;
  }

  /** The retention in force: the shortest of the engine's and the running replays' (undefined: keep everything). */
  get retainNs(): bigint | undefined {
    let ns = this.#engineNs;
    for (const held of this.#held) if (ns === undefined || held.ns < ns) ns = held.ns;
    return ns;
  }

  /** Puts `ns` in force until the returned release is called (a replay's retention, for its duration). */
  hold(ns: bigint | undefined): () => void {
    if (ns === undefined) return () => undefined;
    const held = { ns };
    this.#held.add(held);
    return () => void this.#held.delete(held);
  }

  /** Before a chunk commits: prunes up to the cut its newest block sets, when the cut has moved. */
  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const store = this.store();
    if (chunk.blocks.length === 0 || store === undefined) return NO_EFFECT;
    const newest = chunk.blocks[chunk.blocks.length - 1].timestamp;
    this.#first ??= chunk.blocks[0].timestamp;
    const retainNs = this.retainNs;
    if (retainNs === undefined) return NO_EFFECT;
    const step = retainNs < MAX_STEP_NS ? retainNs : MAX_STEP_NS;
    const target = newest - retainNs;
    const cut = target - (((target % step) + step) % step);
    const held = store.prunedBefore;
    if (cut <= this.#first || (held !== undefined && cut <= held)) return NO_EFFECT;
    for (const listener of this.listeners) await listener.beforePrune?.();
    await store.prune(cut);
    return { records: [], apply: () => void this.listeners.forEach((listener) => listener.pruned?.(cut)) };
  }
}
