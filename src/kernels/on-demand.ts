/**
 * Workers that run while they are used. A worker is started by its first use and, when it has a
 * linger, ended that long after its last use is over: WebAssembly memory cannot shrink, so ending
 * the worker is how its high-water mark is given back. The Parquet decoder's worker holds
 * parquet-wasm's heap (~80 MiB after a dump's row groups), which a load no longer needs once its
 * files are read; the kernel worker's fee kernels grow to the largest window's samples. A worker
 * that failed (a decoder trap on a corrupt file, a crash) is replaced by the next use.
 */
import type { ParquetDecoder } from '../ingest/files/parquet-decoder.js';
import type { KernelClient } from './client.js';

/**
 * A fee window of this many samples or more leaves the kernel worker's memory grown (the fee
 * kernels hold ~40 bytes a sample, and WebAssembly memory cannot shrink): the worker then ends
 * once idle for KERNELS_LINGER_MS, and the next window starts a new one. A start costs the call
 * that waits for it ~150-200 ms: with a linger of a second, the first fee answer after a load of
 * the hour paid it; ten seconds spares the answers that follow a load and still gives the memory
 * back to a process that goes quiet.
 */
export const LARGE_WINDOW_SAMPLES = 1 << 19;
export const KERNELS_LINGER_MS = 10_000;

/**
 * How long the decoder's worker outlives its last use: a few reads back of a file's rows in a row
 * (local fee markets) share one worker. A load holds it throughout and ends it at once.
 */
export const DECODER_LINGER_MS = 1000;

interface Worker {
  readonly failed: boolean;
  close(): Promise<void>;
}

export class OnDemandWorker<C extends Worker> {
  #client: Promise<C> | undefined;
  #started: C | undefined;
  #uses = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The running worker's linger: its own, until a use sets another. */
  #linger: number | undefined;

  /** `lingerMs`: how long the worker stays after its last use (forever when undefined). */
  constructor(private readonly start: () => Promise<C>, private readonly lingerMs?: number) {
    this.#linger = lingerMs;
  }

  /** The worker, started if there is none (or it failed), not held: to warm it, or for a worker that never lingers. */
  get(): Promise<C> {
    return this.#current();
  }

  /** The worker, started if there is none (or it failed); holds it until `release`. */
  async acquire(): Promise<C> {
    this.#uses++;
    clearTimeout(this.#timer);
    try {
      return await this.#current();
    } catch (error) {
      this.release();
      throw error;
    }
  }

  /** Ends a use; the last one starts the linger. */
  release(): void {
    if (--this.#uses > 0 || this.#linger === undefined) return;
    // no linger: ended now, not by a timer, which waits for whatever the caller does next without
    // yielding to the event loop (the answers after a load: the decoder's ~200 MiB then outlived the
    // load by the first answers, ~0.8 s, and made the hour's peak)
    if (this.#linger === 0) return void this.#end();
    this.#timer = setTimeout(() => void this.#end(), this.#linger);
    // a lingering worker never keeps a process alive (Node's timers have unref; browsers' are numbers)
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Runs `task` with the worker held. With `lingerMs`, the worker from then on ends that long after
   * its last use (a task that left it holding memory it cannot give back); the next starts as new.
   */
  async use<T>(task: (client: C) => Promise<T>, lingerMs?: number): Promise<T> {
    const client = await this.acquire();
    try {
      return await task(client);
    } finally {
      if (lingerMs !== undefined) this.#linger = lingerMs;
      this.release();
    }
  }

  /** Ends the worker now (the engine's close); a later use starts another. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    await this.#end(true);
  }

  #current(): Promise<C> {
    if (this.#client === undefined || this.#started?.failed) {
      this.#started = undefined;
      const client: Promise<C> = this.start().then((started) => (this.#client === client ? (this.#started = started) : started));
      // a worker that could not start is tried again by the next use
      client.catch(() => this.#client === client && (this.#client = undefined));
      this.#client = client;
      return client;
    }
    return this.#client;
  }

  async #end(evenInUse = false): Promise<void> {
    const client = this.#client;
    if (client === undefined || (this.#uses > 0 && !evenInUse)) return;
    this.#client = this.#started = undefined;
    this.#linger = this.lingerMs;
    await (await client.catch(() => undefined))?.close();
  }
}

/**
 * A Parquet decoder in a worker that runs while a file is open or read (`OnDemandWorker`): each
 * open file holds it until closed or read to its end.
 */
export function onDemandDecoder(worker: OnDemandWorker<KernelClient>): ParquetDecoder {
  // handles of its own, since a replaced worker numbers its files anew
  const open = new Map<number, { client: KernelClient; handle: number }>();
  let next = 0;
  const done = (id: number) => {
    if (open.delete(id)) worker.release();
  };
  const file = (id: number) => {
    const opened = open.get(id);
    if (!opened) throw new Error(`Parquet file ${id} is not open`);
    return opened;
  };
  return {
    async open(location, options) {
      const client = await worker.acquire();
      try {
        const opened = await client.parquet.open(location, options);
        const id = ++next;
        open.set(id, { client, handle: opened.handle });
        return { ...opened, handle: id };
      } catch (error) {
        worker.release();
        throw error;
      }
    },
    async next(id) {
      const { client, handle } = file(id);
      const parts = await client.parquet.next(handle);
      if (parts === undefined) done(id); // the worker freed it at its end
      return parts;
    },
    async close(id) {
      const opened = open.get(id);
      if (!opened) return;
      try {
        await opened.client.parquet.close(opened.handle);
      } catch (error) {
        if (!opened.client.failed) throw error; // a worker that failed took its files with it
      } finally {
        done(id);
      }
    },
    readRows: (location, columns, from, to) => worker.use((client) => client.parquet.readRows(location, columns, from, to)),
    take: (location, held, rows) => worker.use((client) => client.parquet.take(location, held, rows)),
    ascending: (location, column) => worker.use((client) => client.parquet.ascending(location, column)),
  };
}
