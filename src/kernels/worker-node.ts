/** Starts the kernel worker as a Node worker_thread (the Node edge of src/kernels/client.ts). */
import { Worker } from 'node:worker_threads';
import { compiledWorkerUrl } from '../platform/node-worker-url.js';
import { createKernelClient, type KernelClient } from './client.js';
import { nodeEndpoint } from '../platform/node-endpoint.js';

/** The compiled kernel worker bundled into one module for Node (scripts/bundle.mjs), dist/workers/kernel.worker.node.js. */
export function nodeKernelWorkerUrl(): URL {
  return compiledWorkerUrl('kernel.worker.node.js', import.meta.url);
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
