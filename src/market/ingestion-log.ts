/**
 * chain::market::ingestion live: the timings of the last INGESTION_HISTORY slots in memory. The
 * pipeline makes a commit's timings once it is committed and hands them to `apply`; every slot's
 * row is also kept in the store, which answers `at` queries.
 */
import type { ChunkEffect, ChunkObserver, CommitInfo } from '../ingest/pipeline.js';
import type { IngestionRecord } from '../schema/records.js';
import { NO_DEMAND, type StreamDemand, type StreamUpdate } from '../stream/updates.js';

const METHOD = 'chain::market::ingestion';

/** Slots the live answer covers (the limit's maximum). */
export const INGESTION_HISTORY = 300;

/** The newest timings, one per slot, oldest first. */
export class IngestionLog implements ChunkObserver {
  #timings: readonly IngestionRecord[] = [];

  constructor(private readonly demand: StreamDemand = NO_DEMAND) {}

  /** The newest `limit` timings (at most INGESTION_HISTORY), newest first. */
  latest(limit: number): IngestionRecord[] {
    return this.#timings.slice(-Math.min(limit, INGESTION_HISTORY)).reverse();
  }

  prepare(): ChunkEffect {
    return {
      records: [],
      apply: (commit?: CommitInfo): StreamUpdate[] => {
        const timings = commit?.timings ?? [];
        if (timings.length === 0) return [];
        this.#timings = [...this.#timings, ...timings].slice(-INGESTION_HISTORY);
        if (!this.demand.has(METHOD)) return [];
        return timings.map((t) => ({ method: METHOD, slot: BigInt(t.slot!), timestamp: t.timestamp, records: [t] }));
      },
    };
  }
}
