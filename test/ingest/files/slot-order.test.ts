/**
 * The slot pass of a Parquet file (files/slot-order.ts) over several of its batches: it asks for the
 * next batch before it checks the one at hand and stops at the first slot that goes back. A file in
 * order streams as it is; one whose disorder lies past the pass's first batches
 * is found out, read whole and sorted, nothing lost; the batch asked ahead when the pass stopped
 * does not hold up or break the read that follows. Row groups of 100,000 rows: a batch each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTableFileWriter } from '../../../src/ingest/files/node-sink.js';
import { readInSlotOrder } from '../../../src/ingest/files/slot-order.js';
import type { BlockRow } from '../../../src/schema/tables.js';

const ROWS = 600_000;
const block = (i: number): BlockRow => ({
  slot: 1_000n + BigInt(i), timestamp: 1_760_000_000_000_000_000n + BigInt(i) * 400_000_000n,
  parent_slot: 999n + BigInt(i), block_height: null, leader: null, block_cu_limit: null,
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-slot-order-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(rows: BlockRow[], name: string): Promise<{ slots: bigint[]; warnings: string[] }> {
  const path = join(dir, name);
  const writer = await createTableFileWriter(path, 'parquet', 'blocks', { rowGroupRows: 100_000 });
  await writer.write(rows);
  await writer.close();
  const warnings: string[] = [];
  const slots: bigint[] = [];
  for await (const batch of readInSlotOrder({ name: 'blocks.parquet', path }, { batchRows: 65_536 }, (m) => warnings.push(m))) {
    expect(batch.rejections).toEqual([]);
    slots.push(...(batch.rows.getChild('slot')!.toArray() as BigUint64Array));
  }
  return { slots, warnings };
}

const ascending = (slots: bigint[]) => slots.every((s, i) => i === 0 || slots[i - 1]! <= s);

it('streams a file in slot order as it is, every row once', async () => {
  const { slots, warnings } = await read(Array.from({ length: ROWS }, (_, i) => block(i)), 'ordered.parquet');
  expect(warnings).toEqual([]);
  expect(slots.length).toBe(ROWS);
  expect(ascending(slots)).toBe(true);
});

it('finds a disorder in the pass\'s sixth batch and sorts the file, nothing lost', async () => {
  const rows = Array.from({ length: ROWS }, (_, i) => block(i));
  [rows[550_000], rows[550_001]] = [rows[550_001]!, rows[550_000]!];
  const { slots, warnings } = await read(rows, 'swapped.parquet');
  expect(warnings).toEqual(['blocks.parquet: rows not in slot order; read whole and sorted before loading']);
  expect(slots.length).toBe(ROWS);
  expect(ascending(slots)).toBe(true);
  expect(new Set(slots).size).toBe(ROWS);
});
