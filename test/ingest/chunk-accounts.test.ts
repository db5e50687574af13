/**
 * Where write-locked accounts left in a file are (src/ingest/chunk-accounts.ts): rows kept as
 * offsets from the first, 2 bytes each where they span fewer than 65,536 rows of the file and 4
 * otherwise, read back as the lists of those rows in the transactions' order. The file here is an
 * Arrow table read by row range, as a Parquet file's deferred columns are
 * (test/ingest/accounts-in-file.test.ts reads real files).
 */
import { describe, expect, it } from 'vitest';
import { Field, List, Table, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import { fileAccounts, readBack } from '../../src/ingest/chunk-accounts.js';
import type { DeferredColumns } from '../../src/ingest/validate.js';

const ROWS = 70_050;
const listOf = (row: number) => [`k${row}`, `k${row + 1}`];
const column = vectorFromArray(Array.from({ length: ROWS }, (_, row) => listOf(row)), new List(new Field('item', new Utf8(), true)));
const reads: [number, number][] = [];
const file: DeferredColumns = {
  source: 'transactions.parquet',
  columns: ['writable_accounts'],
  async read(from, to) {
    reads.push([from, to]);
    return new Table({ writable_accounts: column.slice(from, to) });
  },
};

/** The lists readBack gives, in the transactions' order. */
async function listsBack(rows: number[]): Promise<string[][]> {
  const back = await readBack(fileAccounts(file, rows.length, (i) => rows[i]!));
  const lists = back.lists as Vector<List<Utf8>>;
  return [...back.rows].map((r) => [...lists.get(r)!] as string[]);
}

describe('write-locked accounts left in a file', () => {
  it('keeps rows within 65,536 of each other as 2-byte offsets from the first, and reads back just their span', async () => {
    const rows = [4_000, 4_003, 4_001, 4_000 + 65_535, 4_002];
    const accounts = fileAccounts(file, rows.length, (i) => rows[i]!);
    expect(accounts.rows).toBeInstanceOf(Uint16Array);
    expect(accounts.first).toBe(4_000);
    reads.length = 0;
    expect(await listsBack(rows)).toEqual(rows.map(listOf));
    expect(reads).toEqual([[4_000, 4_000 + 65_536]]);
  });

  it('keeps rows 65,536 or more apart as 4-byte offsets', async () => {
    const rows = [70_000, 5, 300, 65_541];
    const accounts = fileAccounts(file, rows.length, (i) => rows[i]!);
    expect(accounts.rows).toBeInstanceOf(Uint32Array);
    expect(accounts.first).toBe(5);
    reads.length = 0;
    expect(await listsBack(rows)).toEqual(rows.map(listOf));
    expect(reads).toEqual([[5, 70_001]]);
  });

  it('reads nothing for no rows', async () => {
    reads.length = 0;
    const back = await readBack(fileAccounts(file, 0, () => 0));
    expect(back.lists).toBeNull();
    expect(back.rows).toHaveLength(0);
    expect(reads).toEqual([]);
  });
});
