/** Starts the kernel worker as a Node worker_thread (the Node edge of src/kernels/client.ts). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createKernelClient, type KernelClient } from './client.js';
import { nodeEndpoint } from './endpoint-node.js';

/**
 * The compiled worker, dist/workers/kernel.worker.js (Node 20 cannot run a .ts worker). From
 * dist/src/kernels/ it is the sibling tree; when this module runs from the TS sources (vitest), the
 * same relative path names workers/kernel.worker.js in the source tree, which does not exist, so it
 * falls back to <package root>/dist/workers/kernel.worker.js, built by `npm run build`.
 */
export function nodeKernelWorkerUrl(): URL {
  const candidates = [
    new URL('../../workers/kernel.worker.js', import.meta.url),
    new URL('../../dist/workers/kernel.worker.js', import.meta.url),
  ];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found) {
    const paths = candidates.map((url) => fileURLToPath(url)).join(', ');
    throw new Error(`kernel worker not built: none of ${paths} exists (run npm run build)`);
  }
  return found;
}

/** Spawns a kernel worker thread; resolves once its kernels are instantiated. */
export async function startNodeKernelWorker(): Promise<KernelClient> {
  return connectNodeKernelWorker(new Worker(nodeKernelWorkerUrl()));
}

/** A client of an already spawned kernel worker thread; `close()` terminates it. */
export async function connectNodeKernelWorker(worker: Worker): Promise<KernelClient> {
  const client = createKernelClient(nodeEndpoint(worker), () => worker.terminate());
  worker.once('error', (error) => void client.fail(error));
  worker.once('exit', (code) => void client.fail(new Error(`kernel worker exited with code ${code}`)));
  await client.ready();
  return client;
}
