/**
 * The browser smoke page: the built browser entry (dist/src/index.browser.js), as a package user
 * bundles it, with DuckDB-WASM's bundle URLs imported through Vite. The Node side
 * (../browser.test.ts) calls `window.__chainlens.*` and reads the JSON it returns and leaves in
 * `window.__result`.
 */
/// <reference types="vite/client" />
import duckdbWorkerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import duckdbWasmUrl from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import { createEngine, type LoadSource } from '../../../dist/src/index.browser.js';
import { startBrowserKernelWorker } from '../../../dist/src/kernels/worker-browser.js';

/** A file handed over by the test: text, or bytes as a plain number array. */
export interface PageFile {
  name: string;
  text?: string;
  bytes?: number[];
}

declare global {
  interface Window {
    __chainlens: typeof api;
    __result?: string;
  }
}

const show = (text: string): string => {
  document.getElementById('out')!.textContent = text;
  window.__result = text;
  return text;
};

/** The bytes of a file handed over by the test. */
const bytesOf = (f: PageFile): Uint8Array<ArrayBuffer> => (f.bytes ? Uint8Array.from(f.bytes) : new TextEncoder().encode(f.text ?? ''));

/** Loads `source` into a new engine; the JSON of trades, token and the load report. */
async function answer(source: LoadSource): Promise<string> {
  const engine = await createEngine({ duckdb: { workerUrl: duckdbWorkerUrl, wasmUrl: duckdbWasmUrl } });
  try {
    const report = await engine.load(source);
    const trades = await engine.call('chain::market::trades', { limit: 10 });
    const token = await engine.call('chain::market::token', {});
    const [response] = await engine.request(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain::market::trades', params: { limit: 1 } }));
    const { read, ingested, rejected, blocks } = report;
    return show(JSON.stringify({ report: { read, ingested, rejected, blocks }, trades, token, response }));
  } finally {
    await engine.close();
  }
}

const api = {
  /** Loads the files as `{ name, bytes }`. */
  query(files: PageFile[]): Promise<string> {
    return answer(files.map((f) => ({ name: f.name, bytes: bytesOf(f) })));
  },

  /**
   * Loads the files as browser File objects (named, as a file picker gives them) or as Blobs (no
   * name: the table is told from the columns), made here from the test's bytes.
   */
  queryObjects(files: PageFile[], kind: 'file' | 'blob'): Promise<string> {
    return answer(files.map((f) => (kind === 'file' ? new File([bytesOf(f)], f.name) : new Blob([bytesOf(f)]))));
  },

  /**
   * Loads the files as File objects and answers the local fee markets for `accounts`: a Parquet
   * transactions file's accounts are left in the File and read back through the kernel worker.
   */
  async localFees(files: PageFile[], accounts: string[]): Promise<string> {
    const engine = await createEngine({ duckdb: { workerUrl: duckdbWorkerUrl, wasmUrl: duckdbWasmUrl } });
    try {
      const { read, ingested, rejected, blocks } = await engine.load(files.map((f) => new File([bytesOf(f)], f.name)));
      const estimate = await engine.call('chain::priorityfee::estimate', { accounts });
      const recent = await engine.call('chain::priorityfee::recent', { accounts });
      return show(JSON.stringify({ report: { read, ingested, rejected, blocks }, estimate, recent }));
    } finally {
      await engine.close();
    }
  },

  /** The sample statistics of prices (decimal strings) in the kernel module worker, as JSON with u64s as strings. */
  async sampleStats(prices: string[]): Promise<string> {
    const kernels = await startBrowserKernelWorker();
    try {
      const price = BigUint64Array.from(prices, BigInt);
      const n = price.length;
      const stats = await kernels.sampleStats({
        price, fee: price.slice(), limit: new BigUint64Array(n).fill(200_000n), position: Float64Array.from(price, (_, i) => (n === 1 ? 0 : i / (n - 1))),
      });
      return show(JSON.stringify(stats, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
    } finally {
      await kernels.close();
    }
  },
};

window.__chainlens = api;
show('ready');
