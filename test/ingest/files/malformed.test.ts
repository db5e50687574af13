import {
  Bool, Field, Float64, Int32, Int64, makeData, RecordBatch, Schema, Struct, Table, TimestampMicrosecond, Utf8,
  tableToIPC, vectorFromArray, type DataType,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { loadParquetWasm } from '../../../src/ingest/files/parquet-wasm.js';
import type { ValidatedBatch } from '../../../src/ingest/validate.js';
import { readAll, SOL, USDC, utf8 } from './fixtures.js';

const SIGNER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

/** A valid trade as a plain JSON-able object. */
const trade = (overrides: Record<string, unknown> = {}) => ({
  signature: SIG, signer: SIGNER, slot: 250000000, tx_index: 3, fill_index: 0, timestamp: '2024-03-14T18:41:18Z',
  base: SOL, quote: USDC, base_amount: 1500000000, quote_amount: 210000000, base_decimals: 9, quote_decimals: 6, is_buy: true,
  ...overrides,
});
const without = (key: string) => {
  const row: Record<string, unknown> = trade();
  delete row[key];
  return row;
};

function reconciles(batches: ValidatedBatch[]): void {
  for (const batch of batches) expect(batch.read).toBe(batch.rows.numRows + batch.rejections.length);
}

describe('malformed NDJSON', () => {
  const lines = [
    JSON.stringify(trade()), // 1 ok
    JSON.stringify(trade({ base: 'not-base58-0OIl' })), // 2
    JSON.stringify(trade({ base_amount: -5 })), // 3
    JSON.stringify(trade({ quote_amount: 'abc' })), // 4
    JSON.stringify(without('signer')), // 5
    JSON.stringify(trade({ timestamp: 'yesterday at noon' })), // 6
    '', // 7: blank, skipped
    JSON.stringify(trade({ base_amount: '18446744073709551615', is_buy: 'false', timestamp: 1710441678 })), // 8 ok
    JSON.stringify(trade({ signer: SOL.slice(0, 30) })), // 9: valid base58, but not 32 bytes
    '[1,2,3]', // 10
    JSON.stringify(trade({ quote_amount: 0 })), // 11: zero amount
    JSON.stringify(trade({ tx_index: 1.5 })), // 12
    '{"signature":"x", "sig', // 13: invalid JSON in the middle
    JSON.stringify(trade({ base_decimals: 256 })), // 14
    `${JSON.stringify(trade({ fill_index: 1 }))}\r`, // 15 ok, CRLF
    '{"signature":"abc","signer":"9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM","slot":25', // 16: truncated, no newline
  ];
  const text = lines.join('\n');

  it('keeps the valid lines and reports each bad one with line and field', async () => {
    const { rows, rejections, batches, read } = await readAll<'trades'>({ name: 'trades.ndjson', bytes: utf8(text) });
    expect(rows.map((row) => row.fill_index)).toEqual([0, 0, 1]);
    expect(rows[1].base_amount).toBe(18446744073709551615n);
    expect(rows[1].is_buy).toBe(false);
    expect(rows[1].timestamp).toBe(1_710_441_678_000_000_000n);
    expect(rejections.map(({ row, field }) => [row, field])).toEqual([
      [2, 'base'], [3, 'base_amount'], [4, 'quote_amount'], [5, 'signer'], [6, 'timestamp'], [9, 'signer'],
      [10, ''], [11, 'quote_amount'], [12, 'tx_index'], [13, ''], [14, 'base_decimals'], [16, ''],
    ]);
    for (const rejection of rejections) expect(rejection.source).toBe('trades.ndjson');
    const message = (row: number) => rejections.find((r) => r.row === row)!.message;
    expect(message(2)).toMatch(/not a base58 32-byte public key/);
    expect(message(3)).toMatch(/negative/);
    expect(message(4)).toMatch(/not a number: "abc"/);
    expect(message(5)).toBe('missing required column');
    expect(message(6)).toMatch(/unknown timestamp format/);
    expect(message(10)).toMatch(/expected a JSON object/);
    expect(message(11)).toMatch(/zero amount/);
    expect(message(12)).toMatch(/not an integer/);
    expect(message(13)).toMatch(/invalid JSON/);
    expect(message(14)).toMatch(/out of range for u8/);
    expect(message(16)).toMatch(/truncated last line/);
    expect(read).toBe(15); // 16 lines, one blank
    reconciles(batches);
  });

  it('cuts batches by lines read, and the counts reconcile in each', async () => {
    const { batches } = await readAll({ name: 'trades.ndjson', bytes: utf8(text) }, { batchRows: 4 });
    expect(batches.map((batch) => batch.read)).toEqual([4, 4, 4, 3]);
    reconciles(batches);
  });

  it('a null in a required column is a missing value; in an optional column it is null', async () => {
    const blocks = [
      '{"slot":1,"timestamp":1710441678,"leader":null,"parent_slot":null}',
      '{"slot":null,"timestamp":1710441678}',
    ].join('\n');
    const { rows, rejections } = await readAll({ name: 'blocks.jsonl', bytes: utf8(blocks) });
    expect(rows).toEqual([{ slot: 1n, timestamp: 1_710_441_678_000_000_000n, parent_slot: null, block_height: null, leader: null, block_cu_limit: null }]);
    expect(rejections).toEqual([{ source: 'blocks.jsonl', row: 2, field: 'slot', message: 'missing value' }]);
  });
});

describe('malformed CSV', () => {
  const header = 'signature,signer,slot,tx_index,fill_index,timestamp,base,quote,base_amount,quote_amount,base_decimals,quote_decimals,is_buy';
  const row = (overrides: Record<string, string> = {}) => {
    const values: Record<string, string> = { ...Object.fromEntries(Object.entries(trade()).map(([k, v]) => [k, String(v)])), ...overrides };
    return header.split(',').map((name) => values[name]).join(',');
  };
  const lines = [
    header, // 1
    row(), // 2 ok
    row({ base: 'ABC' }), // 3
    row({ base_amount: '-5' }), // 4
    row({ quote_amount: '12abc' }), // 5
    row({ timestamp: '14/03/2024' }), // 6
    row({ signature: '"a ""quoted"", multi\nline signature"' }), // 7-8 ok: one record over two lines
    row({ is_buy: 'yes' }), // 9
    row({ signer: '' }), // 10: empty = null
    '', // 11: blank
    row({ fill_index: '7', is_buy: 'TRUE' }), // 12 ok
    'only,three,fields', // 13
    row().split(',').slice(0, 7).join(','), // 14: truncated last line, no newline
  ];

  it('keeps the valid rows and reports each bad one with its line (header = line 1) and field', async () => {
    const { rows, rejections, batches, read } = await readAll<'trades'>({ name: 'day.trades.csv', bytes: utf8(lines.join('\r\n')) });
    expect(rows.map((r) => r.signature)).toEqual([SIG, 'a "quoted", multi\nline signature', SIG]);
    expect(rows[2]).toMatchObject({ fill_index: 7, is_buy: true });
    expect(rejections.map(({ row: line, field }) => [line, field])).toEqual([
      [3, 'base'], [4, 'base_amount'], [5, 'quote_amount'], [6, 'timestamp'], [9, 'is_buy'], [10, 'signer'], [13, ''], [14, ''],
    ]);
    expect(rejections.find((r) => r.row === 10)!.message).toBe('missing value');
    expect(rejections.find((r) => r.row === 13)!.message).toBe('expected 13 fields, found 3');
    expect(rejections.find((r) => r.row === 14)!.message).toMatch(/expected 13 fields, found 7 \(truncated last line\?\)/);
    expect(read).toBe(11);
    reconciles(batches);
  });

  it('a column missing from the header rejects every row, naming the column', async () => {
    const columns = header.split(',');
    const drop = columns.indexOf('is_buy');
    const cut = (line: string) => line.split(',').filter((_, i) => i !== drop).join(',');
    const text = [cut(header), cut(row()), cut(row())].join('\n');
    const { rows, rejections } = await readAll({ name: 'trades.csv', bytes: utf8(text) });
    expect(rows).toEqual([]);
    expect(rejections).toEqual([2, 3].map((line) => ({ source: 'trades.csv', row: line, field: 'is_buy', message: 'missing required column' })));
  });

  it('an unterminated quote at the end of the file rejects that record only', async () => {
    const text = `${header}\n${row()}\n${row({ signature: '"never closed' })}`;
    const { rows, rejections } = await readAll({ name: 'trades.csv', bytes: utf8(text) });
    expect(rows).toHaveLength(1);
    expect(rejections).toEqual([{ source: 'trades.csv', row: 3, field: '', message: expect.stringMatching(/unterminated quoted field/) }]);
  });

  it('splits records correctly whatever the chunk boundaries (quotes, CRLF, multi-byte characters)', async () => {
    const tokens = [
      'mint,name,symbol,decimals,supply',
      `${USDC},"USD, ""Coin""",USDC,6,18446744073709551615`,
      `${SOL},"Wrapped\r\nSOL 🚀",SOL,9,`,
      `${SIGNER},"",X,0,""`,
    ].join('\r\n');
    const bytes = utf8(tokens);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const stream = (async function* () {
        for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
      })();
      const { rows, rejections } = await readAll({ name: 'tokens.csv', stream });
      expect(rejections.map((r) => [r.row, r.field])).toEqual([[5, 'supply']]); // "" is an empty string, not a u64
      expect(rows).toEqual([
        { mint: USDC, name: 'USD, "Coin"', symbol: 'USDC', decimals: 6, supply: 18446744073709551615n },
        { mint: SOL, name: 'Wrapped\r\nSOL 🚀', symbol: 'SOL', decimals: 9, supply: null },
      ]);
    }
  });
});

describe('malformed Arrow IPC and Parquet (foreign column types)', () => {
  /** A trades table as another tool might write it: wide signed ints, floats, strings, a Timestamp. */
  function foreignTrades(includeIsBuy = true): Table {
    const n = 5;
    const columns: [string, DataType, unknown[]][] = [
      ['signature', new Utf8(), [SIG, SIG, SIG, SIG, SIG]],
      ['signer', new Utf8(), [SIGNER, 'bad!', SIGNER, SIGNER, SIGNER]],
      ['slot', new Int64(), [250000000n, 250000000n, -1n, 250000001n, 250000001n]],
      ['tx_index', new Int32(), [0, 1, 2, 3, 4]],
      ['fill_index', new Int32(), [0, 0, 0, 0, 0]],
      ['timestamp', new TimestampMicrosecond(), [1710441678250000, 1710441678250000, 1710441678250000, 1710441678250000, 1710441678250001]],
      ['base', new Utf8(), [SOL, SOL, SOL, SOL, SOL]],
      ['quote', new Utf8(), [USDC, USDC, USDC, USDC, USDC]],
      ['base_amount', new Float64(), [1e9, 1e9, 1e9, 1.5, 2e9]],
      ['quote_amount', new Utf8(), ['18446744073709551615', '1', '1', '1', 'abc']],
      ['base_decimals', new Int32(), [9, 9, 9, 9, 9]],
      ['quote_decimals', new Int32(), [6, 6, 6, 6, 6]],
      ['is_buy', new Bool(), [true, false, true, false, true]],
    ];
    const kept = columns.filter(([name]) => includeIsBuy || name !== 'is_buy');
    const schema = new Schema(kept.map(([name, type]) => new Field(name, type, true)));
    const children = kept.map(([, type, values]) => {
      if (type instanceof TimestampMicrosecond) {
        return makeData({ type, length: n, data: BigInt64Array.from(values as number[], (v) => BigInt(v)) });
      }
      return vectorFromArray(values as never[], type).data[0];
    });
    return new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children }))]);
  }

  const expected = [[2, 'signer'], [3, 'slot'], [4, 'base_amount'], [5, 'quote_amount']];

  it('Arrow IPC file and stream: exact conversion, 1-based row numbers', async () => {
    for (const [name, bytes] of [['trades.arrow', tableToIPC(foreignTrades(), 'file')], ['trades.arrows', tableToIPC(foreignTrades(), 'stream')]] as const) {
      const { rows, rejections, batches } = await readAll({ name, bytes });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ slot: 250000000n, timestamp: 1_710_441_678_250_000_000n, quote_amount: 18446744073709551615n, base_amount: 1_000_000_000n });
      expect(rejections.map((r) => [r.row, r.field]), name).toEqual(expected);
      expect(rejections[0].source).toBe(name);
      reconciles(batches);
    }
  });

  it('Parquet: the same rows rejected, with 1-based row numbers', async () => {
    const parquet = await loadParquetWasm();
    const bytes = parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(foreignTrades(), 'stream')));
    const { rows, rejections, batches } = await readAll<'trades'>({ name: 'trades.parquet', bytes });
    expect(rows).toHaveLength(1);
    expect(rows[0].timestamp).toBe(1_710_441_678_250_000_000n);
    expect(rejections.map((r) => [r.row, r.field])).toEqual(expected);
    reconciles(batches);
  });

  it('a missing column in Arrow and Parquet rejects every row, naming the column', async () => {
    const parquet = await loadParquetWasm();
    const ipc = tableToIPC(foreignTrades(false), 'stream');
    for (const [name, bytes] of [['trades.arrows', ipc], ['trades.parquet', parquet.writeParquet(parquet.Table.fromIPCStream(ipc))]] as const) {
      const { rows, rejections } = await readAll({ name, bytes });
      expect(rows).toEqual([]);
      expect(rejections[0]).toEqual({ source: name, row: 1, field: 'is_buy', message: 'missing required column' });
      expect(rejections.slice(1).map((r) => [r.row, r.field])).toEqual(expected); // each row's first bad field
    }
  });

  it('a file that is not what its name says is an error naming the file', async () => {
    await expect(readAll({ name: 'trades.parquet', bytes: utf8('signature,signer\n') })).rejects.toThrow(/trades\.parquet: not a Parquet file/);
    await expect(readAll({ name: 'trades.arrow', bytes: utf8('{"a":1}\n') })).rejects.toThrow(/trades\.arrow: not an Arrow IPC/);
    const corrupt = new Uint8Array([0x50, 0x41, 0x52, 0x31, 1, 2, 3, 4, 5, 0x50, 0x41, 0x52, 0x31]);
    await expect(readAll({ name: 'trades.parquet', bytes: corrupt })).rejects.toThrow(/trades\.parquet: not a readable Parquet file/);
  });
});
