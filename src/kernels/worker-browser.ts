/** Starts the kernel worker as a browser module Web Worker (the browser edge of src/kernels/client.ts). */
import type { Endpoint } from 'comlink';
import { createKernelClient, type KernelClient } from './client.js';

/**
 * Spawns a kernel Web Worker from `url` (default: the compiled worker beside this module's tree,
 * dist/workers/kernel.worker.js); resolves once its kernels are instantiated.
 */
export async function startBrowserKernelWorker(url?: URL): Promise<KernelClient> {
  const worker = new Worker(url ?? new URL('../../workers/kernel.worker.js', import.meta.url), {
    type: 'module',
  });
  const client = createKernelClient(worker as Endpoint, () => worker.terminate());
  const onError = (event: ErrorEvent) => void client.fail(new Error(`kernel worker failed: ${event.message}`));
  worker.addEventListener('error', onError, { once: true });
  await client.ready();
  return client;
}
