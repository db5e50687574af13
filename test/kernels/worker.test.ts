/**
 * The kernel worker (Node worker_threads, Comlink) through its client: the window statistics it
 * computes equal the reference's, its calls answer in order, an error is a rejection that leaves
 * the worker usable, and close() ends it.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { sampleStatsReference } from '../../src/kernels/fees-reference.js';
import type { FeeSamples } from '../../src/kernels/fees.js';
import { connectNodeKernelWorker, nodeKernelWorkerUrl, startNodeKernelWorker } from '../../src/kernels/worker-node.js';
import { mulberry32 } from '../helpers/prng.js';

/** n samples; prices and fees up to 2^64 - 1 (no float could hold them exactly). */
function samples(n: number, seed: number): FeeSamples {
  const random = mulberry32(seed);
  const u64 = () => (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
  return {
    price: BigUint64Array.from({ length: n }, u64),
    fee: BigUint64Array.from({ length: n }, u64),
    limit: BigUint64Array.from({ length: n }, () => BigInt(Math.floor(random() * 1_400_000))),
    position: Float64Array.from({ length: n }, (_, i) => (n === 1 ? 0 : i / (n - 1))),
  };
}

describe('kernel worker (Node worker_threads, Comlink)', () => {
  it('computes sample statistics equal to the reference, the columns transferred to it', async () => {
    const client = await startNodeKernelWorker();
    try {
      for (const n of [1, 7, 100_000]) {
        const input = samples(n, n);
        const expected = sampleStatsReference(input);
        expect(await client.sampleStats(input), `${n} samples`).toEqual(expected);
        expect(input.price.length, 'transferred, not copied').toBe(0);
      }
    } finally {
      await client.close();
    }
  });

  it('answers concurrent calls in order and reports errors as rejections', async () => {
    const client = await startNodeKernelWorker();
    try {
      const inputs = [1, 2, 3, 1000, 50_000].map((n) => samples(n, 100 + n));
      const expected = inputs.map(sampleStatsReference);
      const results = await Promise.all(inputs.map((input) => client.sampleStats(input)));
      expect(results).toEqual(expected);
      const uneven = { ...samples(3, 1), fee: new BigUint64Array(2) };
      await expect(client.sampleStats(uneven)).rejects.toThrow(/differ in length/);
      // the worker is still usable after an error
      const one = samples(1, 2);
      const reference = sampleStatsReference(one);
      expect(await client.sampleStats(one)).toEqual(reference);
    } finally {
      await client.close();
    }
  });

  it('close() terminates the worker and rejects calls in flight and after', async () => {
    const worker = new Worker(nodeKernelWorkerUrl());
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    const client = await connectNodeKernelWorker(worker);
    const inFlight = client.sampleStats(samples(400_000, 3));
    const rejected = expect(inFlight).rejects.toThrow(/closed/);
    await client.close();
    await rejected;
    await expect(exited).resolves.toBeTypeOf('number');
    await expect(client.sampleStats(samples(1, 4))).rejects.toThrow(/closed/);
    await client.close(); // idempotent
  });
});
