/**
 * What a replay reads, as units of one block: a dump (read by the same code as `engine.load`,
 * one chunk at a time, so memory holds about one chunk of the dump) or rows in memory (an
 * iterable of `ingest` inputs, e.g. the generator's blocks).
 */
import { emptyReport, type IngestReport } from '../ingest/pipeline.js';
import type { ValidatedBatch } from '../ingest/validate.js';
import { splitBlocks, type ReplayUnit } from './replay-blocks.js';

/** Something `loadInputs` can commit chunks to. */
export interface ChunkSink {
  commit(batches: readonly ValidatedBatch[]): Promise<IngestReport>;
}

/** A source of units, and what its reader refused beyond them (known once the units are consumed). */
export interface ReplaySource {
  units: AsyncIterable<ReplayUnit>;
  /** The reader's own report (rows it refused before they became batches), once it has finished. */
  finish(): IngestReport | undefined;
}

class ReplayStopped extends Error {}

/**
 * Units from a loader that pushes chunks (`engine.load`'s reader). The loader is paused at each
 * chunk until the replay has taken every unit of it, so at most one chunk is in memory.
 */
export function unitsFromLoader(load: (sink: ChunkSink) => Promise<IngestReport>): ReplaySource {
  const queue: ReplayUnit[] = [];
  let drained: { resolve(): void; reject(e: Error): void } | undefined;
  let ready: (() => void) | undefined;
  let finished = false;
  let failure: unknown;
  let stopped = false;
  let report: IngestReport | undefined;

  const sink: ChunkSink = {
    commit(batches) {
      if (stopped) return Promise.reject(new ReplayStopped());
      queue.push(...splitBlocks(batches));
      const wait = new Promise<IngestReport>((resolve, reject) => {
        drained = { resolve: () => resolve(emptyReport()), reject };
      });
      ready?.();
      return wait;
    },
  };
  let loading: Promise<void> | undefined;
  const start = () =>
    (loading ??= load(sink).then(
      (r) => void (report = r),
      (error) => void (error instanceof ReplayStopped || (failure = error)),
    ).finally(() => {
      finished = true;
      ready?.();
    }));

  const units: AsyncIterable<ReplayUnit> = {
    [Symbol.asyncIterator]() {
      start();
      return {
        async next(): Promise<IteratorResult<ReplayUnit>> {
          for (;;) {
            if (queue.length > 0) return { done: false, value: queue.shift()! };
            const d = drained;
            drained = undefined;
            d?.resolve();
            if (finished) {
              if (failure) throw failure;
              return { done: true, value: undefined };
            }
            await new Promise<void>((resolve) => (ready = resolve));
            ready = undefined;
          }
        },
        async return(): Promise<IteratorResult<ReplayUnit>> {
          stopped = true;
          queue.length = 0;
          const d = drained;
          drained = undefined;
          d?.reject(new ReplayStopped());
          await loading;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { units, finish: () => report };
}

/** Units from rows in memory; `validate` turns one item into batches (as `engine.ingest` does). */
export function unitsFromRows<T>(items: Iterable<T> | AsyncIterable<T>, validate: (item: T) => Promise<ValidatedBatch[]>): ReplaySource {
  async function* units(): AsyncGenerator<ReplayUnit> {
    for await (const item of items) yield* splitBlocks(await validate(item));
  }
  return { units: units(), finish: () => undefined };
}
