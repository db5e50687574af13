/** Starts the kernel worker as a browser module Web Worker (the browser edge of src/kernels/client.ts). */
import type { Endpoint } from 'comlink';
import { postableParquetWasm, type ParquetWasmSource } from '../ingest/files/parquet-wasm.js';
import { createKernelClient, type KernelClient } from './client.js';

/**
 * Spawns a kernel Web Worker from `url` (default: the compiled worker beside this module's tree,
 * dist/workers/kernel.worker.js); resolves once its kernels are instantiated. The default is
 * written as `new Worker(new URL(..., import.meta.url), { type: 'module' })`, the form bundlers
 * (Vite, webpack 5, Parcel) recognise and bundle as a worker entry. `parquetWasm` is where its
 * parquet-wasm takes its wasm from (the page's setting; default: fetched next to its module).
 */
export async function startBrowserKernelWorker(url?: string | URL, parquetWasm?: ParquetWasmSource): Promise<KernelClient> {
  const worker = url === undefined
    ? new Worker(new URL('../../workers/kernel.worker.js', import.meta.url), { type: 'module' })
    : new Worker(url, { type: 'module' });
  const client = createKernelClient(worker as Endpoint, () => worker.terminate());
  const onError = (event: ErrorEvent) => void client.fail(new Error(`kernel worker failed: ${event.message || 'script error'}`));
  worker.addEventListener('error', onError, { once: true });
  await client.ready();
  if (parquetWasm !== undefined) await client.configureParquet(await postableParquetWasm(parquetWasm));
  return client;
}
