/**
 * Regressions of damaged input: a truncated Arrow IPC or Parquet file, a raw getBlock transaction
 * whose meta.computeUnitsConsumed is out of the u64 range, and a CSV line with an unbalanced quote.
 * Each must be reported naming the file (and, for rows, the row and field), and must not take the
 * valid data around it down with it. Block 254170887 is helius-labs/photon's (Apache-2.0; see
 * test/fixtures/real/PROVENANCE.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table, tableToIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { generateBlocks } from '../../src/generate/market.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine } from '../../src/index.node.js';
import { rowsToTable } from '../../src/ingest/arrow.js';
import { CsvSplitter, MAX_MULTILINE_RECORD } from '../../src/ingest/files/csv.js';
import { loadParquetWasm } from '../../src/ingest/files/parquet-wasm.js';
import { decodeGetBlockFile } from '../../src/ingest/solana/get-block.js';
import type { BlockRow } from '../../src/schema/tables.js';
import { REAL_DATA } from '../helpers/real-data.js';
import { readAll, utf8 } from './files/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'chainlens-regression-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECOND = 1_000_000_000n;
const blockRows = (from: number, n: number): BlockRow[] =>
  Array.from({ length: n }, (_, i) => ({ slot: BigInt(from + i), timestamp: (1_710_441_678n + BigInt(from + i)) * SECOND }));

/** An Arrow IPC file or stream of blocks in two record batches (100 + 50 rows). */
function arrowBlocks(format: 'file' | 'stream'): Uint8Array {
  const table = new Table([...rowsToTable('blocks', blockRows(1000, 100)).batches, ...rowsToTable('blocks', blockRows(1100, 50)).batches]);
  return tableToIPC(table, format);
}

async function parquetBlocks(): Promise<Uint8Array> {
  const parquet = await loadParquetWasm();
  return parquet.writeParquet(parquet.Table.fromIPCStream(arrowBlocks('stream')));
}

describe('truncated binary files', () => {
  it('truncated Arrow file: names the file and says it is truncated', async () => {
    const bytes = arrowBlocks('file');
    // cut in the first message, in a record batch body, in the footer, and just before the final magic
    for (const cut of [10, 300, Math.floor(bytes.length / 2), bytes.length - 40, bytes.length - 1]) {
      const read = readAll({ name: 'blocks.arrow', bytes: bytes.subarray(0, cut) });
      await expect(read, `cut at ${cut}`).rejects.toThrow(
        new RegExp(`^blocks\\.arrow: truncated Arrow IPC file: .*\\(${cut} bytes; the footer .* is missing\\)`),
      );
    }
    // the whole file still reads
    expect((await readAll({ name: 'blocks.arrow', bytes })).rows).toHaveLength(150);
  });

  it('truncated Arrow stream: cut in its schema, an error naming the file; cut later, the rows before the cut load and the file is called truncated', async () => {
    const bytes = arrowBlocks('stream');
    await expect(readAll({ name: 'blocks.arrows', bytes: bytes.subarray(0, 40) }))
      .rejects.toThrow(/^blocks\.arrows: truncated Arrow IPC stream: it ends inside a message \(Expected to read/);
    // the second record batch's body is cut (the stream ends with 8 bytes of end-of-stream marker)
    const cut = await readAll({ name: 'blocks.arrows', bytes: bytes.subarray(0, bytes.length - 8 - 100) });
    expect(cut.rows).toHaveLength(100);
    expect(cut.batches.at(-1)).toMatchObject({ truncatedAt: 101 });
  });

  it('corrupt Arrow file (whole length, damaged first message): an error naming the file, not an endless loop', async () => {
    const bytes = arrowBlocks('file').slice();
    bytes.fill(0xab, 10, 50); // the footer now points at a message that is no record batch
    await expect(readAll({ name: 'blocks.arrow', bytes })).rejects.toThrow(/^blocks\.arrow: not a valid Arrow IPC file or stream .*\(truncated or corrupt\?\)/);
  }, 10_000);

  it('truncated Parquet file: names the file and says it is truncated', async () => {
    const bytes = await parquetBlocks();
    for (const cut of [4, 11, 100, Math.floor(bytes.length / 2), bytes.length - 1]) {
      await expect(readAll({ name: 'blocks.parquet', bytes: bytes.subarray(0, cut) }), `cut at ${cut}`).rejects.toThrow(
        new RegExp(`^blocks\\.parquet: truncated Parquet file: .*\\(${cut} bytes; the footer .* is missing\\)`),
      );
    }
    expect((await readAll({ name: 'blocks.parquet', bytes })).rows).toHaveLength(150);
  });

  it('truncated Arrow and Parquet files: engine.load rejects naming the file, before committing anything', async () => {
    const arrow = arrowBlocks('file');
    const parquet = await parquetBlocks();
    const engine = await createEngine();
    try {
      for (const [name, bytes] of [['cut.blocks.arrow', arrow], ['cut.blocks.parquet', parquet]] as const) {
        const path = join(dir, name);
        writeFileSync(path, bytes.subarray(0, bytes.length - 20));
        await expect(engine.load(path)).rejects.toThrow(new RegExp(`cut\\.blocks\\.(arrow|parquet): truncated (Arrow IPC|Parquet) file`));
      }
      expect(await engine.call('chain::market::ingestion', {})).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('corrupt Parquet row group (footer intact): the load rejects naming the file; the engine goes on with a new kernel worker', async () => {
    const path = join(dir, 'corrupt.blocks.parquet');
    const writer = await createTableFileWriter(path, 'parquet', 'blocks'); // compressed, as dumps are
    await writer.write(blockRows(1000, 5000));
    await writer.close();
    const bytes = readFileSync(path);
    bytes.fill(0xab, 200, 2000); // inside the row group's compressed data, the footer untouched: parquet-wasm traps
    writeFileSync(path, bytes);
    const engine = await createEngine();
    try {
      await expect(engine.load(path)).rejects.toThrow(/^corrupt\.blocks\.parquet: not a readable Parquet file/);
      // a block with transactions needs the kernels: the worker that failed on the file was replaced
      const [block] = [...generateBlocks({ blocks: 1, txPerBlock: 10, seed: 'after-corrupt' })];
      const report = await engine.ingest({ blocks: [block!.block], transactions: block!.transactions });
      expect(report.rejected).toBe(0);
      expect(await engine.call('chain::priorityfee::block', {})).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });

  it('truncated Arrow and Parquet files in a folder are skipped with a warning; every other file loads', async () => {
    const folder = mkdtempSync(join(dir, 'folder-'));
    const arrow = arrowBlocks('file');
    writeFileSync(join(folder, 'blocks.arrow'), arrow);
    writeFileSync(join(folder, 'more.blocks.arrow'), arrow.subarray(0, arrow.length - 20));
    writeFileSync(join(folder, 'other.blocks.parquet'), (await parquetBlocks()).subarray(0, 100));
    const engine = await createEngine();
    try {
      const report = await engine.load(folder);
      expect(report).toMatchObject({ ingested: 150, rejected: 0, blocks: 150 });
      expect(report.warnings).toEqual(expect.arrayContaining([
        expect.stringMatching(/^skipped .*more\.blocks\.arrow \(truncated Arrow IPC file: /),
        expect.stringMatching(/^skipped .*other\.blocks\.parquet \(truncated Parquet file: /),
      ]));
    } finally {
      await engine.close();
    }
  });
});

describe('raw getBlock: computeUnitsConsumed out of range', () => {
  const PAYER = 'Payer11111111111111111111111111111111111111';
  const PROGRAM = 'Prog111111111111111111111111111111111111111';
  const CB = 'ComputeBudget111111111111111111111111111111';
  const signature = (i: number) => String(i + 2).repeat(88);
  /** A json-encoded entry; `consumed` is written into the JSON text as it is (a literal beyond 2^64 included). */
  const entry = (i: number, consumed: string) => JSON.stringify({
    transaction: {
      signatures: [signature(i)],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 2 },
        accountKeys: [PAYER, CB, PROGRAM], recentBlockhash: '1'.repeat(32),
        instructions: [{ programIdIndex: 2, accounts: [], data: '' }],
      },
    },
    meta: { err: null, fee: 5000, preBalances: [10_000, 1, 1], postBalances: [5_000, 1, 1], computeUnitsConsumed: '@' },
    version: 'legacy',
  }).replace('"@"', consumed);
  /** One block of four transactions; transaction 2's consumed compute units are `bad`. */
  const blockText = (bad: string) => JSON.stringify({ slot: 300, block: { blockTime: 1_710_441_678, parentSlot: 299, transactions: ['@0', '@1', '@2', '@3'] } })
    .replace(/"@(\d)"/g, (_, i) => entry(Number(i), Number(i) === 2 ? bad : String(1000 + Number(i))));

  for (const bad of ['18446744073709551616', '99999999999999999999999999', '"18446744073709551616"', '-1']) {
    it(`getBlock computeUnitsConsumed overflow (${bad}): the rejection names file, row, field, transaction index and signature; the rest of the block loads`, () => {
      const result = decodeGetBlockFile(blockText(bad), 'dump/block-300.json');
      expect(result.blocks.map((b) => b.slot)).toEqual([300n]);
      expect(result.transactions.map((t) => [t.index, t.compute_units_consumed])).toEqual([[0, 1000n], [1, 1001n], [3, 1003n]]);
      expect(result.blockStats[0]).toMatchObject({ slot: 300n, transactions: 4, rejectedTransactions: 1 });
      expect(result.rejections).toHaveLength(1);
      const [rejection] = result.rejections;
      expect(rejection).toMatchObject({ source: 'dump/block-300.json', row: 1, field: 'block.transactions[2].meta.computeUnitsConsumed' });
      expect(rejection.message).toContain(`slot 300, transaction 2 (signature ${signature(2)}): `);
      expect(rejection.message).toMatch(bad.startsWith('-') ? /expected a non-negative integer, got number -1/ : /is out of range for u64 \(max 18446744073709551615\)/);
    });
  }

  it('getBlock computeUnitsConsumed overflow: engine.load reports it once, loads the other transactions and names the incomplete block', async () => {
    const path = join(dir, 'block-300.json');
    writeFileSync(path, blockText('18446744073709551616'));
    const engine = await createEngine();
    try {
      const report = await engine.load(path);
      expect(report.rejections).toEqual([{
        source: 'block-300.json', row: 1, field: 'block.transactions[2].meta.computeUnitsConsumed',
        message: `slot 300, transaction 2 (signature ${signature(2)}): 18446744073709551616 is out of range for u64 (max 18446744073709551615)`,
      }]);
      expect(report.read).toBe(report.ingested + report.rejected);
      expect(report.warnings.some((w) => w.includes('block 300 was loaded without 1 row'))).toBe(true);
      const [block] = await engine.call('chain::priorityfee::block', {});
      expect(block).toMatchObject({ slot: '300', total_tx_count: '3', total_compute_units: String(1000 + 1001 + 1003) });
    } finally {
      await engine.close();
    }
  });

  it('getBlock computeUnitsConsumed overflow in a base64 block: the signature is read from the wire bytes', () => {
    const BLOCKS = `${REAL_DATA}blocks/`;
    const base64 = JSON.parse(readFileSync(`${BLOCKS}block-254170887.base64.json`, 'utf8'));
    const json = JSON.parse(readFileSync(`${BLOCKS}block-254170887.json-encoding.json`, 'utf8'));
    base64.transactions[7].meta.computeUnitsConsumed = '@';
    const text = JSON.stringify(base64).replace('"@"', '18446744073709551616');
    const result = decodeGetBlockFile(text, 'block-254170887.base64.json');
    expect(result.transactions).toHaveLength(601);
    expect(result.rejections).toHaveLength(1);
    expect(result.rejections[0]).toMatchObject({ source: 'block-254170887.base64.json', row: 1, field: 'transactions[7].meta.computeUnitsConsumed' });
    expect(result.rejections[0].message).toContain(`slot 254170887, transaction 7 (signature ${json.transactions[7].transaction.signatures[0]}): `);
  });
});

describe('CSV: an unbalanced quote', () => {
  const SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
  const SIGNER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
  const SOL = 'So11111111111111111111111111111111111111112';
  const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  const header = 'signature,signer,slot,tx_index,fill_index,timestamp,base,quote,base_amount,quote_amount,base_decimals,quote_decimals,is_buy';
  /** The trade on `line` (its tx_index is the line number). */
  const row = (line: number, signature = SIG) =>
    [signature, SIGNER, 250_000_000, line, 0, '2024-03-14T18:41:18Z', SOL, USDC, 1_500_000_000, 210_000_000, 9, 6, true].join(',');
  /** 30 lines: the header and 29 trades; `damaged` maps a line to its signature field as written. */
  const csv = (damaged: Record<number, string>, eol = '\n') =>
    [header, ...Array.from({ length: 29 }, (_, i) => row(i + 2, damaged[i + 2]))].join(eol) + eol;
  const byChunks = (text: string, size: number) => {
    const bytes = utf8(text);
    return (async function* () {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    })();
  };

  it('CSV unbalanced quote: rejects line 5 alone, naming line and field, and ingests every other row', async () => {
    for (const eol of ['\n', '\r\n']) {
      for (const size of [1, 3, 64, 1 << 20]) {
        const { rows, rejections, read, batches } = await readAll<'trades'>({ name: 'trades.csv', stream: byChunks(csv({ 5: `"${SIG}` }, eol), size) });
        expect(rejections).toEqual([{
          source: 'trades.csv', row: 5, field: 'signature',
          message: expect.stringMatching(/^unbalanced quote: field 1 \(signature\) opens a quote at character 1 that does not close on its line/),
        }]);
        expect(rows.map((r) => r.tx_index)).toEqual(Array.from({ length: 29 }, (_, i) => i + 2).filter((line) => line !== 5));
        expect(read).toBe(29);
        for (const batch of batches) expect(batch.read).toBe(batch.rows.numRows + batch.rejections.length);
      }
    }
  });

  it('CSV unbalanced quote: a later quoted field does not close it; a well-formed multi-line field still reads', async () => {
    const text = csv({
      5: `"${SIG}`, // unbalanced
      9: '"a ""quoted"", signature"', // quotes that an unbalanced quote on line 5 would otherwise pair with
      20: '"two\nline signature"', // RFC 4180: a quoted line break, the record is well-formed (lines 20-21)
    });
    const { rows, rejections, read } = await readAll<'trades'>({ name: 'trades.csv', bytes: utf8(text) });
    expect(rejections.map((r) => [r.row, r.field])).toEqual([[5, 'signature']]);
    expect(rows).toHaveLength(28);
    expect(rows.find((r) => r.tx_index === 9)!.signature).toBe('a "quoted", signature');
    expect(rows.find((r) => r.tx_index === 20)!.signature).toBe('two\nline signature');
    expect(read).toBe(29);
  });

  it('CSV unbalanced quote on the last line with a line end: that line alone; without one: truncated', async () => {
    const last = await readAll({ name: 'trades.csv', bytes: utf8(csv({ 30: `"${SIG}` })) });
    expect(last.rejections.map((r) => [r.row, r.field])).toEqual([[30, 'signature']]);
    expect(last.batches.some((b) => 'truncatedAt' in b)).toBe(false);
    const cut = await readAll({ name: 'trades.csv', bytes: utf8(csv({ 30: `"${SIG}` }).trimEnd()) });
    expect(cut.rejections).toEqual([{ source: 'trades.csv', row: 30, field: '', message: expect.stringMatching(/unterminated quoted field at the end of the file/) }]);
  });

  it('CSV unbalanced quote: the splitter does not hold the rest of the file, it gives the line up once 1 MiB follows it', () => {
    const splitter = new CsvSplitter();
    const rest = `${row(3)}\n`.repeat(Math.ceil(MAX_MULTILINE_RECORD / row(3).length) + 1); // no quote in it
    const records = [...splitter.push(`${header}\n${row(2, `"${SIG}`)}\n`), ...splitter.push(rest)]; // no end(): the file goes on
    expect(records[1]).toMatchObject({ line: 2, terminated: true, unbalanced: { field: 0, column: 1 } });
    expect(records.length).toBe(1 + rest.split('\n').length); // the header, line 2 rejected, every following line
    expect(records.slice(2).every((r) => r.error === undefined && r.fields.length === 13)).toBe(true);
  });

  it('CSV unbalanced quote: engine.load keeps read = ingested + rejected and loads the other rows', async () => {
    const path = join(dir, 'trades.csv');
    writeFileSync(path, csv({ 5: `"${SIG}` }));
    const engine = await createEngine();
    try {
      const report = await engine.load(path);
      expect(report.rejections.map((r) => [r.row, r.field])).toEqual([[5, 'signature']]);
      expect(report.read).toBe(29);
      expect(report.ingested).toBe(28);
      expect(report.read).toBe(report.ingested + report.rejected);
    } finally {
      await engine.close();
    }
  });
});
