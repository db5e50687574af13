import { describe, expect, it } from 'vitest';
import { detectFormat, formatFromMagic, notDumpFileReason, tableFromColumns, tableFromName } from '../../../src/ingest/files/detect.js';
import { TABLES, type TableName } from '../../../src/schema/tables.js';
import { readAll, utf8 } from './fixtures.js';

const columnsOf = (table: TableName, optional = true) => TABLES[table].columns.filter((c) => optional || !c.optional).map((c) => c.name);

describe('table from the file name', () => {
  const cases: [string, TableName | undefined][] = [
    ['trades.csv', 'trades'],
    ['2026-01-01.trades.parquet', 'trades'],
    ['trades-000.ndjson', 'trades'],
    ['dumps/2026-01-01/txs.arrow', 'transactions'],
    ['C:\\dumps\\transactions.jsonl', 'transactions'],
    ['TOKENS.CSV', 'tokens'],
    ['blocks_part-1.feather', 'blocks'],
    ['mainnet.2026-01-01.blocks.00003.arrows', 'blocks'],
    ['mytrades.csv', undefined],
    ['trades-and-tokens.csv', undefined],
    ['block-250000000.json', undefined], // a raw getBlock file, not the blocks table
    ['dump.parquet', undefined],
  ];
  for (const [name, table] of cases) it(`${name} -> ${table}`, () => expect(tableFromName(name)).toBe(table));
});

describe('table from the columns', () => {
  it('each table from its own columns (all, or required only), extra columns allowed', () => {
    for (const table of Object.keys(TABLES) as TableName[]) {
      expect(tableFromColumns(columnsOf(table))).toBe(table);
      expect(tableFromColumns([...columnsOf(table, false), 'extra'])).toBe(table);
    }
  });

  it('the most specific match wins: trades carry the slot and timestamp blocks require', () => {
    expect(tableFromColumns(['slot', 'timestamp'])).toBe('blocks');
    expect(tableFromColumns(columnsOf('trades'))).toBe('trades');
  });

  it('no match or an ambiguous match is an error naming the file', () => {
    expect(() => tableFromColumns(['a', 'b'], 'x.csv')).toThrow(/x\.csv: cannot tell the table .*\(a, b\)/);
    expect(() => tableFromColumns([...columnsOf('transactions'), ...columnsOf('trades')], 'joined.csv')).toThrow(/joined\.csv: the columns fit several tables \(transactions, trades\)/);
  });

  it('readTableFile uses the columns when the name does not tell', async () => {
    const csv = `${columnsOf('tokens').join(',')}\nEPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v,USD Coin,USDC,6,\n`;
    expect((await readAll({ name: 'dump-0001.csv', bytes: utf8(csv) })).table).toBe('tokens');
    const ndjson = '{"slot":1,"timestamp":"2024-01-01T00:00:00Z"}\n';
    expect((await readAll({ name: 'dump-0002', bytes: utf8(ndjson) })).table).toBe('blocks');
    await expect(readAll({ name: 'dump-0003.csv', bytes: utf8('a,b\n1,2\n') })).rejects.toThrow(/dump-0003\.csv: cannot tell the table/);
  });
});

describe('format', () => {
  const none = new Uint8Array(0);
  it('from the extension', () => {
    expect(detectFormat('a.parquet', utf8('PAR1'))).toBe('parquet');
    for (const ext of ['arrow', 'arrows', 'ipc', 'feather']) expect(detectFormat(`a.${ext}`, utf8('ARROW1\0\0'))).toBe('arrow');
    expect(detectFormat('a.ndjson', none)).toBe('ndjson');
    expect(detectFormat('a.JSONL', none)).toBe('ndjson');
    expect(detectFormat('a.csv', none)).toBe('csv');
  });

  it('from the magic bytes when the name does not tell', () => {
    expect(formatFromMagic(utf8('PAR1xxxx'))).toBe('parquet');
    expect(formatFromMagic(utf8('ARROW1\0\0'))).toBe('arrow');
    expect(formatFromMagic(new Uint8Array([0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0]))).toBe('arrow');
    expect(formatFromMagic(utf8('\uFEFF {"a"'))).toBe('ndjson');
    expect(detectFormat('trades', utf8('PAR1xxxx'))).toBe('parquet');
    expect(detectFormat('trades.bin', utf8('ARROW1\0\0'))).toBe('arrow');
    expect(detectFormat('trades.dat', utf8('{"slot"'))).toBe('ndjson');
  });

  it('magic bytes win over a wrong extension; a binary extension without its magic is an error', () => {
    expect(detectFormat('trades.csv', utf8('PAR1xxxx'))).toBe('parquet');
    expect(() => detectFormat('trades.parquet', utf8('slot,ti'))).toThrow(/trades\.parquet: not a Parquet file/);
    expect(() => detectFormat('trades.bin', utf8('slot,ti'))).toThrow(/trades\.bin: unknown file format/);
  });
});

describe('names that are not dump files', () => {
  it('hidden files and backup, temporary or partial copies', () => {
    for (const name of ['.blocks.csv', '.DS_Store', 'dump/blocks.arrow.bak', 'trades.csv~', 'trades.csv.orig', 'x.tmp', '.trades.csv.swp', 'trades.parquet.partial']) {
      expect(notDumpFileReason(name), name).toBeDefined();
    }
    for (const name of ['blocks.arrow', 'trades.csv', '254170887.json', 'SHA256SUMS', 'bak', 'backup-trades.csv']) {
      expect(notDumpFileReason(name), name).toBeUndefined();
    }
  });
});
