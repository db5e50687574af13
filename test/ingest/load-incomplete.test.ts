/**
 * A block whose rows are incomplete in the source is loaded with a warning that names the file, the
 * block and the rows it lost, never silently; a file that ends mid-row is called truncated.
 */
import { describe, expect, it } from 'vitest';
import { canonicalCsv, load, PAYER, rawBlock, tempDir, writeFiles } from './load-fixtures.js';

describe('incomplete blocks are named', () => {
  it('a CSV cut mid-row: the last block loads with what the file holds, and the warning says truncated', async () => {
    const { blocks, transactions } = canonicalCsv([100, 101], 5);
    const cut = transactions.slice(0, transactions.indexOf('sig101x3') + 4);
    const dir = writeFiles(tempDir(), { 'blocks.csv': blocks, 'transactions.csv': cut });
    const { report, committed } = await load(dir, { batchRows: 3 });
    expect(committed.slots).toEqual([100n, 101n]);
    expect(report.ingested).toBe(2 + 5 + 3);
    expect(report.rejections).toEqual([expect.objectContaining({ source: 'transactions.csv', row: 10 })]);
    expect(report.warnings).toEqual([
      'transactions.csv: block 101 was loaded without 1 row of it that was rejected (see the rejections)',
      'transactions.csv: the file ends mid-row at row 10 (truncated?): block 101, the last read from it, may be missing rows',
    ]);
  });

  it('an NDJSON file cut mid-line is called truncated too', async () => {
    const lines = [100, 100, 101].map((slot, i) => JSON.stringify({ slot, timestamp: 1_767_225_600 + slot % 1000, parent_slot: i }));
    const dir = writeFiles(tempDir(), { 'blocks.ndjson': lines.slice(0, 2).join('\n') + '\n' + lines[2].slice(0, 20) });
    const { report } = await load(dir);
    expect(report.warnings.at(-1)).toBe('blocks.ndjson: the file ends mid-row at row 3 (truncated?): block 100, the last read from it, may be missing rows');
  });

  it('bad rows inside blocks: one warning per file listing each block and its rejected rows', async () => {
    const { blocks, transactions } = canonicalCsv([100, 101, 102], 3);
    const bad = transactions.replace(`sig100x1,${PAYER}`, 'sig100x1,0OIl').replace(/(sig101x0,[^\n]*,)150\n/, '$1lots\n')
      .replace(/(sig101x2,[^\n]*,)150\n/, '$1-4\n');
    const dir = writeFiles(tempDir(), { 'blocks.csv': blocks, 'transactions.csv': bad });
    const { report, committed } = await load(dir);
    expect(committed.slots).toEqual([100n, 101n, 102n]);
    expect(report.rejected).toBe(3);
    expect(report.warnings).toEqual([
      'transactions.csv: 2 blocks were loaded without some of their rows, which were rejected (see the rejections): slots 100 (1 row), 101 (2 rows)',
    ]);
  });

  it('a block rejected whole is not called incomplete', async () => {
    const dir = writeFiles(tempDir(), { 'blocks.csv': 'slot,timestamp\n100,2026-01-01T00:00:00Z\n101,yesterday\n' });
    const { report } = await load(dir);
    expect(report.rejected).toBe(1);
    expect(report.warnings).toEqual([]);
  });

  it('a raw block that lost a transaction it could not decode is named with the count', async () => {
    const block = rawBlock(41, 3);
    delete (block.transactions as { meta?: unknown }[])[1].meta;
    const dir = writeFiles(tempDir(), { 'dump.json': JSON.stringify(block) });
    const { report, committed } = await load(dir);
    expect(committed.slots).toEqual([42n]);
    expect(report.rejections).toEqual([expect.objectContaining({ source: 'dump.json', field: 'transactions[1].meta' })]);
    expect(report.warnings).toContain('dump.json: block 42 was loaded without 1 row of it that was rejected (see the rejections)');
  });
});
