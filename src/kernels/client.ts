/**
 * The platform-independent client of a kernel worker (workers/kernel.worker.ts), over any Comlink
 * endpoint. Input values are transferred to the worker, not copied; results are transferred back.
 */
import * as Comlink from 'comlink';
import type { FeeSamples, SampleStats } from './fees.js';
import type { HeldText, OpenedParquet, ParquetDecoder, ParquetLocation, ParquetReadOptions } from '../ingest/files/parquet-decoder.js';
import type { SignatureValues } from '../ingest/signature-values.js';
import type { PostableParquetWasm } from '../ingest/files/parquet-wasm.js';
import type { TransactionNumbers } from '../ingest/block-columns.js';
import type { TransactionForms } from '../ingest/transaction-forms.js';

/** What workers/kernel.worker.ts exposes over Comlink. */
export interface KernelWorkerApi {
  /** Instantiates the kernels (they are created lazily on first use otherwise). */
  ready(): Promise<void>;
  /** Priority-fee statistics of one sample set (src/kernels/fees.ts). */
  sampleStats(samples: FeeSamples): Promise<SampleStats>;
  /** A chunk's transaction forms (src/ingest/transaction-forms.ts), transferred back. */
  transactionForms(numbers: TransactionNumbers): Promise<TransactionForms>;
  /** Where the worker's parquet-wasm (esm build) takes its wasm from: a page's `parquetWasm` setting. */
  configureParquet(wasm: PostableParquetWasm): Promise<void>;
  /** Parquet decoding (src/ingest/files/parquet-decoder.ts): each batch's IPC bytes transferred back. */
  parquetOpen(location: ParquetLocation, options: ParquetReadOptions): Promise<OpenedParquet>;
  parquetNext(handle: number): Promise<Uint8Array[] | undefined>;
  parquetReadRows(location: ParquetLocation, columns: string[], from: number, to: number): Promise<Uint8Array>;
  parquetClose(handle: number): Promise<void>;
  parquetTake(location: ParquetLocation, held: HeldText, rows: Uint32Array): Promise<SignatureValues[]>;
  parquetAscending(location: ParquetLocation, column: string): Promise<boolean | undefined>;
}

/** The kernels, running in a worker. */
export interface KernelClient {
  /**
   * Statistics of a sample set. Its columns are transferred to the worker, not copied (they are
   * empty here after the call): give it arrays of their own (a fee window's gathered samples).
   */
  sampleStats(samples: FeeSamples): Promise<SampleStats>;
  /**
   * A chunk's transaction forms from its numeric columns, which are transferred (give it arrays of
   * their own: `transactionNumbers(table, true)`).
   */
  transactionForms(numbers: TransactionNumbers): Promise<TransactionForms>;
  /** Parquet files decoded in the worker, on the other core: a Node path or a browser File is read there. */
  readonly parquet: ParquetDecoder;
  /** Sets where the worker's parquet-wasm takes its wasm from (browsers; before the first Parquet file). */
  configureParquet(wasm: PostableParquetWasm): Promise<void>;
  /** Whether the worker has failed (crashed, exited, or closed): every call rejects from then on. */
  readonly failed: boolean;
  /** Terminates the worker; calls still in flight reject. */
  close(): Promise<void>;
}

/** What the fee windows ask of the kernel worker. */
export type FeeStatsKernels = Pick<KernelClient, 'sampleStats'>;

/** A client that its platform entry can also fail (the worker crashed or exited). */
export interface ManagedKernelClient extends KernelClient {
  /** Rejects the calls in flight and all later calls with `error`, and terminates the worker. */
  fail(error: Error): Promise<void>;
  /** Resolves once the worker has instantiated its kernels; if it cannot, fails the client and rejects. */
  ready(): Promise<void>;
}

/** Wraps a kernel worker's endpoint; `terminate` ends the worker (called once, by `close`/`fail`). */
export function createKernelClient(
  endpoint: Comlink.Endpoint,
  terminate: () => unknown,
): ManagedKernelClient {
  const remote = Comlink.wrap<KernelWorkerApi>(endpoint);
  const inFlight = new Set<(error: Error) => void>();
  let failure: Error | undefined;

  function call<T>(start: () => Promise<T>): Promise<T> {
    if (failure) return Promise.reject(failure);
    return new Promise<T>((resolve, reject) => {
      inFlight.add(reject);
      start().then(resolve, reject).finally(() => inFlight.delete(reject));
    });
  }

  async function fail(error: Error): Promise<void> {
    if (failure) return;
    failure = error;
    for (const reject of inFlight) reject(error);
    inFlight.clear();
    // Release the proxy so Comlink's finalizer never posts to the dead worker later.
    remote[Comlink.releaseProxy]();
    await terminate();
  }

  return {
    sampleStats: (samples) => call(() => remote.sampleStats(Comlink.transfer(samples, buffersOf(samples)))),
    transactionForms: (numbers) => call(() => remote.transactionForms(Comlink.transfer(numbers, buffersOf(numbers)))),
    configureParquet: (wasm) => call(() => remote.configureParquet(wasm)),
    parquet: {
      open: (location, options) => call(() => remote.parquetOpen(location, options)),
      next: (handle) => call(() => remote.parquetNext(handle)),
      close: (handle) => call(() => remote.parquetClose(handle)),
      readRows: (location, columns, from, to) => call(() => remote.parquetReadRows(location, columns, from, to)),
      take: (location, held, rows) => call(() => remote.parquetTake(location, held, rows)),
      ascending: (location, column) => call(() => remote.parquetAscending(location, column)),
    },
    ready: () =>
      call(() => remote.ready()).catch(async (error: unknown) => {
        await fail(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }),
    fail,
    get failed() {
      return failure !== undefined;
    },
    close: () => fail(new Error('kernel worker closed')),
  };
}

/**
 * The distinct buffers behind the typed arrays of `values` and of their fields, nested objects
 * included (each may be transferred once).
 */
export function buffersOf(...values: object[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (ArrayBuffer.isView(value)) buffers.add(value.buffer as ArrayBuffer);
    else if (value && typeof value === 'object' && !Array.isArray(value)) Object.values(value).forEach(visit);
  };
  values.forEach(visit);
  return [...buffers];
}
