/**
 * The Parquet decoder's batches are bounded in bytes (files/parquet-decoder.ts BATCH_BYTES): a file
 * of wide rows is handed over in batches of fewer rows than asked, every row once and in order; a
 * file of narrow rows keeps the rows asked. Real files written by parquet-wasm, read by the decoder
 * in this thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { createTableFileWriter } from '../../../src/ingest/files/node-sink.js';
import { BATCH_BYTES, createParquetDecoder } from '../../../src/ingest/files/parquet-decoder.js';
import type { TransactionRow } from '../../../src/schema/tables.js';

const ROWS = 10_000;
/** Distinct signatures of 1,000 characters: ~10 MB of text in one row group. */
const wide = (i: number) => `${i}:`.padEnd(1_000, String.fromCharCode(97 + (i % 26)));

let dir: string;
async function writeFile(name: string, signature: (i: number) => string): Promise<string> {
  const path = join(dir, name);
  const writer = await createTableFileWriter(path, 'parquet', 'transactions', { rowGroupRows: ROWS });
  await writer.write(Array.from({ length: ROWS }, (_, i): TransactionRow => ({
    slot: 500n + BigInt(i >> 5), index: i & 31, signature: signature(i), signer: 'S', program: 'P', is_vote: false, failed: false,
    compute_unit_price: BigInt(i), compute_unit_limit: 200_000, compute_units_consumed: 1_000n, priority_fee: null, writable_accounts: null,
  })));
  await writer.close();
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-batch-bytes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each batch of the file read whole, 65,536 rows a batch asked: its row count, IPC bytes and signatures. */
async function batchesOf(path: string) {
  const decoder = createParquetDecoder();
  const opened = await decoder.open({ path }, { batchRows: 65_536, columns: ['slot', 'signature'] });
  const batches: { rows: number; bytes: number; signatures: string[] }[] = [];
  for (let parts = await decoder.next(opened.handle); parts; parts = await decoder.next(opened.handle)) {
    const table = tableFromIPC(parts[0]!);
    batches.push({ rows: table.numRows, bytes: parts[0]!.byteLength, signatures: table.getChild('signature')!.toArray() as string[] });
  }
  return batches;
}

it('hands over a file of wide rows in batches within the bound, every row once and in order', async () => {
  const batches = await batchesOf(await writeFile('wide.parquet', wide));
  expect(batches.length).toBeGreaterThan(4);
  for (const batch of batches) expect(batch.bytes).toBeLessThan(1.25 * BATCH_BYTES);
  expect(batches.flatMap((b) => b.signatures)).toEqual(Array.from({ length: ROWS }, (_, i) => wide(i)));
});

it('keeps the rows asked for a file of narrow rows', async () => {
  const batches = await batchesOf(await writeFile('narrow.parquet', (i) => `s${i}`));
  expect(batches.map((b) => b.rows)).toEqual([ROWS]);
});
