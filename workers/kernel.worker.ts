/**
 * Kernel worker entry: a Node worker_thread or a browser module Web Worker. It exposes the kernels
 * over Comlink and instantiates them lazily, because a browser module worker must call `expose`
 * before any top-level await or it loses the messages that arrive first (DESIGN.md 2).
 */
import * as Comlink from 'comlink';
import type { KernelWorkerApi } from '../src/kernels/client.js';
import { createFeeKernels, type FeeKernels } from '../src/kernels/fees.js';
import { createKernels, type Kernels } from '../src/kernels/instance.js';
import { createMarketKernels, type MarketKernels } from '../src/kernels/market.js';
import { createParquetDecoder } from '../src/ingest/files/parquet-decoder.js';
import { configureParquetWasm } from '../src/ingest/files/parquet-wasm.js';

/** Values pre-reserved at start-up, so the first calls pay no memory growth or page faults. */
const INITIAL_VALUES = 1 << 20;

let kernels: Kernels | undefined;
const instance = (): Kernels => (kernels ??= createKernels(INITIAL_VALUES));
let feeKernels: FeeKernels | undefined;
const fees = (): FeeKernels => (feeKernels ??= createFeeKernels());
let marketKernels: MarketKernels | undefined;
const market = (): MarketKernels => (marketKernels ??= createMarketKernels());
const parquet = createParquetDecoder();

/** Bytes that own their whole buffer, so that it can be transferred: parquet-wasm hands out such copies; anything else is copied. */
const owned = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());

/** A result object of typed arrays, its buffers transferred back instead of copied. */
const transferred = <T extends object>(result: T): T =>
  Comlink.transfer(result, [...new Set(Object.values(result).filter(ArrayBuffer.isView).map((v) => v.buffer as ArrayBuffer))]);

const api: KernelWorkerApi = {
  async ready() {
    instance();
    fees();
    market();
  },
  async percentilesU64(values, millis) {
    const out = instance().percentilesU64(values, millis);
    return Comlink.transfer(out, [out.buffer]);
  },
  async blockFeeStatsMany(blocks) {
    return fees().blockFeeStatsMany(blocks);
  },
  async sampleStats(samples) {
    return fees().sampleStats(samples);
  },
  async candles(trades, width) {
    return transferred(market().candles(trades, width));
  },
  async blockAggregates(trades, keys, options) {
    return transferred(market().blockAggregates(trades, keys, options));
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
