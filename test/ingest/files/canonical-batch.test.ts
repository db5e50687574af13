/**
 * The column-wise path of Arrow and Parquet input: a batch with the canonical column types and
 * valid values is kept as it is, and equals what the row-by-row path makes of it; a batch with any
 * bad value, or other column types, goes row by row and its rejections name row and field.
 */
import { Field, makeData, RecordBatch, Schema, Struct, Table, Int64, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { rowsToTable, tableToRows } from '../../../src/ingest/arrow.js';
import { canonicalBatch } from '../../../src/ingest/files/canonical-batch.js';
import { validateRecordBatches } from '../../../src/ingest/files/arrow-rows.js';
import type { FileBatch } from '../../../src/ingest/files/reader.js';
import type { TableName } from '../../../src/schema/tables.js';
import { makeRows } from './fixtures.js';

const TABLES: TableName[] = ['blocks', 'transactions', 'trades', 'tokens'];

async function validate(table: TableName, batches: RecordBatch[]): Promise<FileBatch[]> {
  const out: FileBatch[] = [];
  for await (const b of validateRecordBatches(batches[0]!.schema, batches, { source: 'input.arrow', table, batchRows: 40 })) out.push(b);
  return out;
}

/** `batch` with column `name` replaced by `data`. */
function withColumn(batch: RecordBatch, name: string, field: Field, data: ReturnType<typeof makeData>): RecordBatch {
  const index = batch.schema.fields.findIndex((f) => f.name === name);
  const fields = batch.schema.fields.map((f, i) => (i === index ? field : f));
  const children = batch.data.children.map((c, i) => (i === index ? data : c));
  return new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: batch.numRows, nullCount: 0, children }));
}

describe('canonical batches', () => {
  it.each(TABLES)('%s: kept as they are, equal to the row path, numbered across batches', async (table) => {
    const input = rowsToTable(table, makeRows(table, 100, 7) as never[]);
    const batch = input.batches[0]!;
    const kept = canonicalBatch(table, batch);
    expect(kept).toBeDefined();
    expect(kept!.data.children[0]!.values).toBe(batch.data.children[0]!.values); // no copy
    const out = await validate(table, [batch, batch]);
    expect(out.map((b) => b.rows.numRows)).toEqual([40, 40, 40, 40, 40]); // re-cut across the input's batches
    expect([...out.flatMap((b) => [...b.rowNumbers!])]).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const rows = out.flatMap((b) => tableToRows(table, b.rows));
    const expected = tableToRows(table, input);
    expect(rows).toEqual([...expected, ...expected]);
  });

  it('a bad public key, a zero amount or a null where none may be sends the batch row by row, naming the rows', async () => {
    // the bad values go into the Arrow columns directly (rowsToTable would refuse them)
    const trades = rowsToTable('trades', makeRows('trades', 50, 3) as never[]).batches[0]!;
    const bases = tableToRows('trades', new Table(trades)).map((r, i) => (i === 9 ? 'not-a-key' : r.base));
    const base = trades.schema.fields.find((f) => f.name === 'base')!;
    const signerBatch = withColumn(trades, 'base', base, vectorFromArray(bases, base.type).data[0]!);
    expect(canonicalBatch('trades', signerBatch)).toBeUndefined();
    const out = await validate('trades', [signerBatch]);
    expect(out.flatMap((b) => b.rejections)).toEqual([{ source: 'input.arrow', row: 10, field: 'base', message: expect.stringMatching(/not a base58/) }]);
    expect(out.reduce((n, b) => n + b.rows.numRows, 0)).toBe(49);

    // between canonical batches, rows stay in file order and keep their numbers
    const mixed = await validate('trades', [trades, signerBatch, trades]);
    expect(mixed.flatMap((b) => b.rejections).map((r) => r.row)).toEqual([60]);
    const all = tableToRows('trades', new Table(trades));
    expect(mixed.flatMap((b) => tableToRows('trades', b.rows))).toEqual([...all, ...all.filter((_, i) => i !== 9), ...all]);
    expect(mixed.flatMap((b) => [...b.rowNumbers!])).toEqual(Array.from({ length: 150 }, (_, i) => i + 1).filter((n) => n !== 60));

    const amounts = trades;
    const values = (amounts.getChild('quote_amount')!.toArray() as BigUint64Array).slice();
    values[20] = 0n;
    const zeroBatch = withColumn(amounts, 'quote_amount', amounts.schema.fields.find((f) => f.name === 'quote_amount')!,
      makeData({ type: amounts.schema.fields.find((f) => f.name === 'quote_amount')!.type, length: 50, nullCount: 0, data: values }));
    expect(canonicalBatch('trades', zeroBatch)).toBeUndefined();
    expect((await validate('trades', [zeroBatch])).flatMap((b) => b.rejections)).toEqual([
      { source: 'input.arrow', row: 21, field: 'quote_amount', message: expect.stringMatching(/zero amount/) },
    ]);

    const txs = rowsToTable('transactions', makeRows('transactions', 30, 5) as never[]).batches[0]!;
    const price = txs.schema.fields.find((f) => f.name === 'compute_unit_price')!;
    const bitmap = new Uint8Array(4).fill(255);
    bitmap[0] = 0b1111_1011; // row 3 is null
    const nullBatch = withColumn(txs, 'compute_unit_price', new Field(price.name, price.type, true),
      makeData({ type: price.type, length: 30, nullCount: 1, nullBitmap: bitmap, data: txs.getChild('compute_unit_price')!.toArray() as BigUint64Array }));
    expect(canonicalBatch('transactions', nullBatch)).toBeUndefined();
    expect((await validate('transactions', [nullBatch])).flatMap((b) => b.rejections)).toEqual([
      { source: 'input.arrow', row: 3, field: 'compute_unit_price', message: 'missing value' },
    ]);
  });

  it('other column types (an unmarked Int64 time) take the row path and read the same', async () => {
    const input = rowsToTable('blocks', makeRows('blocks', 20, 2) as never[]);
    const batch = input.batches[0]!;
    const time = batch.schema.fields.find((f) => f.name === 'timestamp')!;
    const plain = withColumn(batch, 'timestamp', new Field(time.name, new Int64(), false), batch.getChild('timestamp')!.data[0]!);
    expect(canonicalBatch('blocks', plain)).toBeUndefined();
    const out = await validate('blocks', [plain]);
    expect(out.flatMap((b) => tableToRows('blocks', b.rows))).toEqual(tableToRows('blocks', new Table(batch)));
  });
});
