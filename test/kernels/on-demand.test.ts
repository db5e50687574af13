/**
 * Workers that run while used (src/kernels/on-demand.ts), with real kernel worker threads and a
 * real Parquet file: the decoder's worker ends a linger after its last file is read or closed,
 * stays while a file is open, starts again for a read back (with the right rows), and a worker
 * that failed is replaced; a use can ask a worker to end once idle (the kernel worker after a
 * large fee window), until it ends. The engine's own: after a load the decoder's worker is gone, and the
 * write-locked accounts left in the file are still read back right (a new worker).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { createEngineOn } from '../../src/engine.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import type { KernelClient } from '../../src/kernels/client.js';
import { DECODER_LINGER_MS, OnDemandWorker, onDemandDecoder } from '../../src/kernels/on-demand.js';
import { startNodeKernelWorker } from '../../src/kernels/worker-node.js';
import { sampleStatsReference } from '../../src/kernels/fees-reference.js';
import { nodePlatform } from '../../src/platform/node.js';
import type { TransactionRow } from '../../src/schema/tables.js';
import { callAny } from '../helpers/call.js';
import { base58 } from '../helpers/reference-accounts.js';
import { oracleRecent, type OracleBlock } from '../helpers/local-fee-oracle.js';

const LINGER = 60;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether `done()` holds within 5 s (a loaded machine runs timers late), polled. */
async function soon(done: () => boolean): Promise<boolean> {
  for (let tries = 0; tries < 100 && !done(); tries++) await wait(50);
  return done();
}

/** Starts real kernel workers, keeping each it started. */
function counting() {
  const started: KernelClient[] = [];
  const start = async () => {
    const client = await startNodeKernelWorker();
    started.push(client);
    return client;
  };
  return { started, start };
}

let dir: string;
let file: string;
const ROWS = 2_500;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-on-demand-'));
  file = join(dir, 'transactions.parquet');
  const writer = await createTableFileWriter(file, 'parquet', 'transactions', { rowGroupRows: 1_000 });
  await writer.write(Array.from({ length: ROWS }, (_, i): TransactionRow => ({
    slot: 100n + BigInt(i >> 4), index: i & 15, signature: `sig-${i}`, signer: 'S', program: 'P', is_vote: false, failed: false,
    compute_unit_price: BigInt(i), compute_unit_limit: 200_000, compute_units_consumed: 1_000n, priority_fee: null, writable_accounts: null,
  })));
  await writer.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Reads the whole file through `decoder`: its row count. */
async function readAll(decoder: ReturnType<typeof onDemandDecoder>): Promise<number> {
  const { handle } = await decoder.open({ path: file }, { batchRows: 1_000 });
  let rows = 0;
  for (let parts; (parts = await decoder.next(handle)) !== undefined;) rows += tableFromIPC(parts[0]!).numRows;
  return rows;
}

describe('a worker run while used', () => {
  it('ends the decoder\'s worker a linger after the last file is read, and starts another to read rows back', async () => {
    const { started, start } = counting();
    const worker = new OnDemandWorker(start, LINGER);
    const decoder = onDemandDecoder(worker);
    try {
      expect(await readAll(decoder)).toBe(ROWS);
      expect(await readAll(decoder)).toBe(ROWS); // within the linger: the same worker
      expect(started.length).toBe(1);
      expect(started[0]!.failed).toBe(false);
      expect(await soon(() => started[0]!.failed), 'ended after the linger').toBe(true);
      const back = tableFromIPC(await decoder.readRows({ path: file }, ['compute_unit_price'], 1_200, 1_203));
      expect(back.getChild('compute_unit_price')!.toArray()).toEqual(new BigUint64Array([1_200n, 1_201n, 1_202n]));
      expect(started.length).toBe(2);
      expect(await soon(() => started[1]!.failed)).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it('stays while a file is open, and ends after it is closed', async () => {
    const { started, start } = counting();
    const worker = new OnDemandWorker(start, LINGER);
    const decoder = onDemandDecoder(worker);
    try {
      const { handle } = await decoder.open({ path: file }, { batchRows: 1_000 });
      expect(tableFromIPC((await decoder.next(handle))![0]!).numRows).toBe(1_000);
      await wait(LINGER * 4);
      expect(started[0]!.failed, 'a file is open').toBe(false);
      expect(tableFromIPC((await decoder.next(handle))![0]!).numRows).toBe(1_000);
      await decoder.close(handle);
      await decoder.close(handle); // twice: the second is nothing
      await expect(decoder.next(handle)).rejects.toThrow(/not open/);
      expect(await soon(() => started[0]!.failed)).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it('replaces a worker that failed, and one without a linger stays until closed', async () => {
    const { started, start } = counting();
    const worker = new OnDemandWorker(start);
    const decoder = onDemandDecoder(worker);
    try {
      expect(await readAll(decoder)).toBe(ROWS);
      await wait(LINGER * 2);
      expect(started[0]!.failed, 'no linger: kept').toBe(false);
      await started[0]!.close(); // as a crash would leave it
      expect(await worker.get()).toBe(await worker.get());
      expect(started.length).toBe(2);
      expect(await readAll(decoder)).toBe(ROWS);
    } finally {
      await worker.close();
    }
    expect(started[1]!.failed, 'closed with the engine').toBe(true);
  });
});

describe('a worker told to linger by a use', () => {
  it('ends after its last use once a use asked it to, and the next starts without a linger', async () => {
    const { started, start } = counting();
    const worker = new OnDemandWorker(start);
    const samples = (n: number) => ({
      price: BigUint64Array.from({ length: n }, (_, i) => BigInt(i)), fee: BigUint64Array.from({ length: n }, (_, i) => BigInt(2 * i)),
      limit: BigUint64Array.from({ length: n }, () => 200_000n), position: Float64Array.from({ length: n }, (_, i) => i / n),
    });
    const stats = (n: number, lingerMs?: number) => worker.use((client) => client.sampleStats(samples(n)), lingerMs);
    const ten = sampleStatsReference(samples(10));
    try {
      expect(await stats(10)).toEqual(ten);
      await wait(LINGER * 3);
      expect(started[0]!.failed, 'no linger yet').toBe(false);
      await Promise.all([stats(1_000, LINGER), stats(10)]);
      expect(started[0]!.failed, 'held while in use').toBe(false);
      expect(await soon(() => started[0]!.failed), 'ended after the linger a use set').toBe(true);
      expect(await stats(10)).toEqual(ten);
      expect(started.length).toBe(2);
      await wait(LINGER * 3);
      expect(started[1]!.failed, 'a new worker has its own linger: none').toBe(false);
    } finally {
      await worker.close();
    }
  });
});

describe('a use that asks for no linger', () => {
  it('ends the worker as it ends, before any timer could run (what follows it without yielding to the event loop does not keep it)', async () => {
    const { started, start } = counting();
    const worker = new OnDemandWorker(start, LINGER);
    try {
      await worker.use((client) => client.sampleStats({
        price: new BigUint64Array([1n]), fee: new BigUint64Array([2n]), limit: new BigUint64Array([200_000n]), position: new Float64Array([0]),
      }), 0);
      // microtasks only: a timer of 0 ms would not have fired yet
      for (let turns = 0; turns < 10 && !started[0]!.failed; turns++) await null;
      expect(started[0]!.failed, 'ended within the use\'s own microtasks').toBe(true);
    } finally {
      await worker.close();
    }
  });
});

describe('the engine\'s decoder worker', () => {
  it('ends as a load ends, and the accounts left in the file are read back by another', async () => {
    const folder = join(dir, 'dump');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    const key = (b: number) => base58(new Uint8Array(32).fill(b));
    const hot = key(7);
    const rows = Array.from({ length: 40 }, (_, i): TransactionRow => ({
      slot: 7_000n + BigInt(i >> 2), index: i & 3, signature: `s${i}`, signer: key(1), program: key(2), is_vote: false, failed: false,
      compute_unit_price: BigInt(1_000 * (40 - i)), compute_unit_limit: 200_000, compute_units_consumed: 1_000n, priority_fee: null,
      writable_accounts: i % 3 === 0 ? [hot] : [],
    }));
    const blockRows = Array.from({ length: 10 }, (_, b) => ({
      slot: 7_000n + BigInt(b), timestamp: 1_760_000_000_000_000_000n + BigInt(b) * 400_000_000n, parent_slot: 6_999n + BigInt(b),
      block_height: null, leader: null, block_cu_limit: null,
    }));
    const txs = await createTableFileWriter(join(folder, 'transactions.parquet'), 'parquet', 'transactions');
    await txs.write(rows);
    await txs.close();
    const blocks = await createTableFileWriter(join(folder, 'blocks.parquet'), 'parquet', 'blocks');
    await blocks.write(blockRows);
    await blocks.close();
    const oracle: OracleBlock[] = blockRows.map((block) => ({
      slot: block.slot, timestamp: block.timestamp,
      txs: rows.filter((t) => t.slot === block.slot)
        .map((t) => ({ price: t.compute_unit_price, limit: t.compute_unit_limit, vote: t.is_vote, writable: t.writable_accounts })),
    }));

    const { started, start } = counting();
    const engine = await createEngineOn({ ...nodePlatform, startKernels: start }, { minSamples: 1 });
    try {
      const report = await engine.load(folder, { accountsInFile: true });
      expect(report.rejected, JSON.stringify(report.rejections?.slice(0, 2))).toBe(0);
      const loaded = performance.now();
      expect(await soon(() => started.some((client) => client.failed))).toBe(true);
      expect(performance.now() - loaded, 'a load ends it at once, not after the linger').toBeLessThan(DECODER_LINGER_MS);
      await wait(DECODER_LINGER_MS / 4);
      const ended = started.filter((client) => client.failed).length;
      expect(ended, 'the decoder\'s worker ended; the fee kernels\' stays').toBe(1);
      const recent = await callAny(engine, 'chain::priorityfee::recent', { accounts: [hot], lookback_slots: 10 }) as Record<string, unknown>[];
      expect(started.length, 'a worker started again for the read back').toBe(3);
      expect(recent.map(({ id: _id, ...rest }) => rest)).toEqual(oracleRecent(oracle, { accounts: [hot], lookback: 10 }));
    } finally {
      await engine.close();
    }
    expect(started.every((client) => client.failed), 'all ended with the engine').toBe(true);
  });
});
