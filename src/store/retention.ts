/**
 * Retention (engine option `retain`): how much history the store keeps behind the newest block.
 *
 * By default nothing is dropped, so as-of queries reach back to the first block, and memory grows
 * with the data. With `retain: R` the store deletes, as blocks arrive, every row older than the
 * newest block's time minus R (in steps of at most a minute of chain time, so a delete runs once per
 * step, not per block): a replay or a long-running service holds the last R of history plus the
 * method engines' live windows, not the whole dump. History before the cut is gone, so an as-of
 * query that needs it is refused (-32602 on `at`) rather than answered from partial data.
 * A replay brings its own retention (default 1h) for its duration: the shortest in force wins.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { invalidParam } from '../rpc/errors.js';
import { durationNanos, NS_PER_SECOND } from '../schema/time.js';
import type { Store } from './store.js';

/**
 * The shortest retention: the longest span a live answer reads back from the store
 * (chain::priorityfee::top_txs, trailing 5 minutes).
 */
export const MIN_RETAIN_NS = 300n * NS_PER_SECOND;
const MAX_STEP_NS = 60n * NS_PER_SECOND;

const NO_EFFECT: ChunkEffect = { records: [], apply: () => undefined };

/** Whether history before a time is still held: the as-of guard every method goes through. */
export interface History {
  /** Throws -32602 on `at` unless the store holds everything from `at - lookbackNs` on. */
  assertHeld(at: bigint, lookbackNs: bigint): void;
}

/** A retention option as nanoseconds: seconds or "15m", "2h", "1d", at least MIN_RETAIN_NS; "all" (or undefined) keeps everything. */
export function retainNanos(value: number | string | undefined): bigint | undefined {
  if (value === undefined || value === 'all') return undefined;
  const ns = durationNanos(value);
  if (ns < MIN_RETAIN_NS) {
    throw new RangeError(`retain must be at least ${MIN_RETAIN_NS / NS_PER_SECOND} s (the longest span a live answer reads from the store)`);
  }
  return ns;
}

/** Prunes the store behind the newest block; see the module comment. */
export class Retention implements ChunkObserver, History {
  /** The engine's own retention (undefined: keep everything). */
  readonly #engineNs: bigint | undefined;
  /** Retentions in force while replays run. */
  readonly #held = new Set<{ readonly ns: bigint }>();
  /** Rows with timestamp < cut are gone (undefined: nothing pruned yet). */
  #cut: bigint | undefined;
  /** The first chunk's time: a cut before it would drop nothing (and must not refuse anything). */
  #first: bigint | undefined;

  constructor(
    engineNs: bigint | undefined,
    private readonly store: () => Store | undefined,
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

  /** The oldest time still held (undefined while nothing has been pruned). */
  get heldFrom(): bigint | undefined {
    return this.#cut;
  }

  assertHeld(at: bigint, lookbackNs: bigint): void {
    if (this.#cut === undefined || at - lookbackNs >= this.#cut) return;
    const seconds = (ns: bigint) => Number(ns / 1_000_000n) / 1000;
    throw invalidParam(
      'at',
      `the answer needs data from ${seconds(at - lookbackNs)} (Unix s) on, but the engine keeps only the history from ` +
        `${seconds(this.#cut)} on (history before it was pruned by the retain option)`,
    );
  }

  /** Before a chunk commits: moves the cut (first, so that the guard is strict at once) and prunes. */
  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const newest = newestTime(chunk);
    const store = this.store();
    if (newest === undefined || store === undefined) return NO_EFFECT;
    this.#first ??= chunk.blocks[0]?.timestamp ?? newest;
    const retainNs = this.retainNs;
    if (retainNs === undefined) return NO_EFFECT;
    const step = retainNs < MAX_STEP_NS ? retainNs : MAX_STEP_NS;
    const target = newest - retainNs;
    const cut = target - (((target % step) + step) % step);
    if (cut <= this.#first || (this.#cut !== undefined && cut <= this.#cut)) return NO_EFFECT;
    this.#cut = cut;
    await store.prune(cut);
    return NO_EFFECT;
  }
}

/** The newest block (or, in a trade-only chunk, trade) time of a chunk. */
function newestTime(chunk: ChunkView): bigint | undefined {
  if (chunk.blocks.length > 0) return chunk.blocks[chunk.blocks.length - 1].timestamp;
  const times = chunk.trades?.getChild('timestamp')?.toArray() as BigInt64Array | undefined;
  if (!times || times.length === 0) return undefined;
  return times.reduce((a, b) => (b > a ? b : a));
}
