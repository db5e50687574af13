/**
 * Kernel worker entry: a Node worker_thread or a browser module Web Worker. It exposes, over
 * Comlink, what is long enough to keep off the serving thread: the fee windows' statistics (the
 * fee kernels over up to an hour of samples), the transactions' per-block forms, and Parquet decoding. It instantiates them lazily,
 * because a browser module worker must call `expose` before any top-level await or it loses the
 * messages that arrive first (DESIGN.md 2).
 */
import * as Comlink from 'comlink';
import { buffersOf, type KernelWorkerApi } from '../src/kernels/client.js';
import { createFeeKernels, type FeeKernels } from '../src/kernels/fees.js';
import { createParquetDecoder } from '../src/ingest/files/parquet-decoder.js';
import { configureParquetWasm } from '../src/ingest/files/parquet-wasm.js';
import { transactionForms } from '../src/ingest/transaction-forms.js';

let feeKernels: FeeKernels | undefined;
const fees = (): FeeKernels => (feeKernels ??= createFeeKernels());
const parquet = createParquetDecoder();

/** Bytes that own their whole buffer, so that it can be transferred: parquet-wasm hands out such copies; anything else is copied. */
const owned = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());

const api: KernelWorkerApi = {
  async ready() {
    fees();
  },
  async sampleStats(samples) {
    const stats = fees().sampleStats(samples);
    // the samples' buffers go back with the answer, to be collected by the serving thread, which
    // allocated them: this worker seldom collects when it only computes (it held 80 MiB of old
    // samples after a load)
    return Comlink.transfer(stats, buffersOf(samples));
  },
  async transactionForms(numbers) {
    const forms = transactionForms(numbers);
    // the input's buffers go back too, for the serving thread's collector (as the samples' above)
    return Comlink.transfer(forms, buffersOf(forms, numbers));
  },
  async configureParquet(wasm) {
    configureParquetWasm({ build: 'esm', wasm });
  },
  async parquetOpen(location, options) {
    const opened = await parquet.open(location, options);
    return Comlink.transfer(opened, [opened.schema.buffer as ArrayBuffer]);
  },
  async parquetNext(handle) {
    const parts = (await parquet.next(handle))?.map(owned);
    return parts && Comlink.transfer(parts, parts.map((bytes) => bytes.buffer as ArrayBuffer));
  },
  async parquetReadRows(location, columns, from, to) {
    const bytes = owned(await parquet.readRows(location, columns, from, to));
    return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
  },
  parquetClose: (handle) => parquet.close(handle),
  // copied back, not transferred: the store keeps these for the whole run, and buffers this thread
  // allocated stay in its malloc arena, which keeps its pages after the thread ends (measured: the
  // hour's peak 5-10 MiB higher transferred)
  parquetTake: (location, held, rows) => parquet.take(location, held, rows),
  parquetAscending: (location, column) => parquet.ascending(location, column),
};

const inBrowser = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
if (inBrowser) {
  Comlink.expose(api, globalThis as unknown as Comlink.Endpoint);
} else {
  // Node: parentPort queues messages until a listener is attached, so the async import loses none.
  // The specifier is a variable so that bundlers building the browser worker leave node: alone.
  const workerThreads = 'node:worker_threads';
  const threads: Promise<typeof import('node:worker_threads')> = import(/* @vite-ignore */ /* webpackIgnore: true */ workerThreads);
  void Promise.all([threads, import('../src/platform/node-endpoint.js')]).then(
    ([{ parentPort }, { nodeEndpoint }]) => {
      if (!parentPort) throw new Error('kernel.worker: not started as a worker thread');
      Comlink.expose(api, nodeEndpoint(parentPort));
    },
  );
}
