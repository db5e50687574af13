import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { arrowSchema, rowsToTable, tableToRows } from '../../../src/ingest/arrow.js';
import { createTableFileWriter } from '../../../src/ingest/files/node-sink.js';
import { memorySink } from '../../../src/ingest/files/sink.js';
import { createTableWriter } from '../../../src/ingest/files/write.js';
import type { FileFormat } from '../../../src/ingest/files/detect.js';
import type { TableName } from '../../../src/schema/tables.js';
import { makeRows, MAX_U64, readAll, tempDir } from './fixtures.js';

const TABLE_NAMES: TableName[] = ['blocks', 'transactions', 'trades', 'tokens'];
const FORMATS: FileFormat[] = ['parquet', 'arrow', 'ndjson', 'csv'];
const EXTENSION: Record<FileFormat, string> = { parquet: 'parquet', arrow: 'arrow', ndjson: 'ndjson', csv: 'csv' };

describe('canonical tables round-trip through every format', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const table of TABLE_NAMES) {
    const rows = makeRows(table, 300, TABLE_NAMES.indexOf(table) + 7);

    it(`${table}: rows -> Arrow table -> rows is the identity`, () => {
      const data = rowsToTable(table, rows);
      expect(data.schema).toEqual(arrowSchema(table));
      expect(tableToRows(table, data)).toEqual(rows);
    });

    for (const format of FORMATS) {
      it(`${table} as ${format}: written in chunks to a file, read back identical`, async () => {
        const path = join(dir, `2026-01-01.${table}.${EXTENSION[format]}`);
        const writer = await createTableFileWriter(path, format, table, { rowGroupRows: 64 });
        await writer.write(rows.slice(0, 100)); // typed rows
        await writer.write(rowsToTable(table, rows.slice(100, 250))); // an Arrow table
        await writer.write(rows.slice(250));
        await writer.close();

        const fromPath = await readAll({ name: path, path }, { batchRows: 128 });
        expect(fromPath.table).toBe(table);
        expect(fromPath.rejections).toEqual([]);
        expect(fromPath.rows).toEqual(rows);
        expect(fromPath.batches.map((batch) => batch.read)).toEqual([128, 128, 44]);
        for (const batch of fromPath.batches) expect(batch.rows.schema).toEqual(arrowSchema(table));

        const bytes = new Uint8Array(readFileSync(path));
        const fromBytes = await readAll({ name: path, bytes });
        expect(fromBytes.rows).toEqual(rows);
      });
    }
  }

  it('u64 extremes survive exactly in every format (never through a float)', async () => {
    const edge = makeRows('tokens', 4, 3).map((row, i) => ({
      ...row, supply: [MAX_U64, MAX_U64 - 1n, (1n << 53n) + 1n, 0n][i],
    }));
    for (const format of FORMATS) {
      const sink = memorySink();
      const writer = createTableWriter(format, 'tokens', sink);
      await writer.write(edge);
      await writer.close();
      const back = await readAll<'tokens'>({ name: `tokens.${EXTENSION[format]}`, bytes: sink.bytes() });
      expect(back.rows.map((row) => row.supply), format).toEqual(edge.map((row) => row.supply));
    }
  });

  it('NDJSON writes u64 above 2^53 as exact integer literals and timestamps as integer nanoseconds', async () => {
    const [row] = makeRows('trades', 1, 5);
    const sink = memorySink();
    const writer = createTableWriter('ndjson', 'trades', sink);
    await writer.write([{ ...row, base_amount: MAX_U64, quote_amount: (1n << 53n) + 1n, timestamp: 1_710_441_678_123_456_789n }]);
    await writer.close();
    const text = new TextDecoder().decode(sink.bytes());
    expect(text).toContain('"base_amount":18446744073709551615,');
    expect(text).toContain('"quote_amount":9007199254740993,');
    expect(text).toContain('"timestamp":1710441678123456789,');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('timestamps within 10^15 ns of the epoch are written as ISO-8601 in text and still read back exactly', async () => {
    const rows = makeRows('blocks', 3, 9).map((row, i) => ({ ...row, timestamp: [0n, 123_456_789n, -999_999_999_999_999n][i] }));
    for (const format of FORMATS) {
      const sink = memorySink();
      const writer = createTableWriter(format, 'blocks', sink);
      await writer.write(rows);
      await writer.close();
      const back = await readAll<'blocks'>({ name: `blocks.${EXTENSION[format]}`, bytes: sink.bytes() });
      expect(back.rows.map((row) => row.timestamp), format).toEqual(rows.map((row) => row.timestamp));
    }
  });

  it('an empty table writes a readable file with the schema and no rows', async () => {
    for (const format of FORMATS) {
      const sink = memorySink();
      const writer = createTableWriter(format, 'trades', sink);
      await writer.close();
      const back = await readAll({ name: `trades.${EXTENSION[format]}`, bytes: sink.bytes() });
      expect(back.rows, format).toEqual([]);
      expect(back.rejections, format).toEqual([]);
    }
  });

  it('writes the Arrow IPC stream format on request, and other readers see canonical Int64 nanoseconds', async () => {
    const rows = makeRows('blocks', 10, 2);
    const sink = memorySink();
    const writer = createTableWriter('arrow', 'blocks', sink, { arrowFormat: 'stream' });
    await writer.write(rows);
    await writer.close();
    const bytes = sink.bytes();
    expect([...bytes.subarray(0, 4)]).toEqual([0xff, 0xff, 0xff, 0xff]);
    const table = tableFromIPC(bytes);
    expect(String(table.schema.fields[1].type)).toBe('Int64');
    expect(table.getChild('timestamp')!.get(0)).toBe(rows[0].timestamp);
    expect((await readAll({ name: 'blocks.arrows', bytes })).rows).toEqual(rows);
  });

  it('writes to a WritableStream and to a callback sink', async () => {
    const rows = makeRows('tokens', 20, 4);
    const chunks: Uint8Array[] = [];
    const stream = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk.slice()) });
    const writer = createTableWriter('csv', 'tokens', stream);
    await writer.write(rows);
    await writer.close();
    const bytes = Buffer.concat(chunks);
    expect((await readAll({ name: 'tokens.csv', bytes })).rows).toEqual(rows);

    const parts: Uint8Array[] = [];
    const viaCallback = createTableWriter('parquet', 'tokens', (chunk) => void parts.push(chunk.slice()));
    await viaCallback.write(rows);
    await viaCallback.close();
    expect((await readAll({ name: 'x.tokens.parquet', bytes: Buffer.concat(parts) })).rows).toEqual(rows);
  });
});
