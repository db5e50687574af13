/**
 * The slot pass of a Parquet file (files/slot-order.ts) over several of its batches: it asks for the
 * next batch before it checks the one at hand and stops at the first slot that goes back. A file in
 * order streams as it is; one whose disorder lies past the pass's first batches
 * is found out, read whole and sorted, nothing lost; the batch asked ahead when the pass stopped
 * does not hold up or break the read that follows. Row groups of 100,000 rows: a batch each. The
 * decoder checks a u64 slot column where it decodes it; a slot column of another type (Int64 here)
 * is read and checked on this thread, with the same outcome.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Int64, Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import { writeFileSync } from 'node:fs';
import { rowsToTable } from '../../../src/ingest/arrow.js';
import { loadParquetWasm } from '../../../src/ingest/files/parquet-wasm.js';
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

async function read(rows: BlockRow[], name: string, int64Slots = false): Promise<{ slots: bigint[]; warnings: string[] }> {
  const path = join(dir, name);
  if (int64Slots) {
    const canonical = rowsToTable('blocks', rows);
    const columns = Object.fromEntries(canonical.schema.fields.map((f) => [f.name, canonical.getChild(f.name)!]));
    const parquet = await loadParquetWasm();
    const table = new Table({ ...columns, slot: vectorFromArray(rows.map((r) => r.slot), new Int64()) });
    writeFileSync(path, parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(table, 'stream'))));
  } else {
    const writer = await createTableFileWriter(path, 'parquet', 'blocks', { rowGroupRows: 100_000 });
    await writer.write(rows);
    await writer.close();
  }
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

it('a slot column of another type than u64 is checked on this thread: a disorder found, the file sorted', async () => {
  const rows = Array.from({ length: 5_000 }, (_, i) => block(i));
  [rows[4_000], rows[4_001]] = [rows[4_001]!, rows[4_000]!];
  const { slots, warnings } = await read(rows, 'int64.parquet', true);
  expect(warnings).toEqual(['blocks.parquet: rows not in slot order; read whole and sorted before loading']);
  expect(slots.length).toBe(5_000);
  expect(ascending(slots)).toBe(true);
});
