/**
 * Retention (engine option `retain`, replay option `retain`): how many of the raw transactions the
 * store keeps behind the newest block. They are nearly all of its memory (about 40 bytes each), and
 * no live answer reads further back than 5 minutes of them: the method engines keep their windows
 * in memory, and the per-block records stay in the store.
 *
 * By default an engine keeps everything, so as-of queries reach the first block. With `retain: R`
 * the store deletes, as blocks arrive, the transactions of blocks older than the newest block's time
 * minus R (in steps of at most a minute of chain time, so a delete runs once per step, not per
 * block): memory is then bounded by R and the live windows, not by the data. An as-of query that
 * would need pruned transactions is refused (-32602 on `at`, see store-queries.ts), never answered
 * from part of them. A replay brings its own retention for its duration; the shortest in force wins.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
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

/** State computed from the transactions when asked, which must be made before the ones it needs are pruned. */
export interface PruneListener {
  /** Makes whatever needs the transactions about to be pruned; runs in the pipeline's queue. */
  beforePrune(): Promise<void>;
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
    const held = store.transactionsFrom;
    if (cut <= this.#first || (held !== undefined && cut <= held)) return NO_EFFECT;
    for (const listener of this.listeners) await listener.beforePrune();
    await store.prune(cut);
    return NO_EFFECT;
  }
}
