/**
 * A transactions file's text columns (signature, signer, program) held by the Parquet decoder while
 * the file loads (files/parquet-decoder.ts `holdText`, `take`):
 *   - the batches handed over lack them; `take` gives any rows, in the order asked (across batches,
 *     repeated, in reverse), from the batches held and, for those no longer held, read back from
 *     the file: against the rows written, multi-byte text included; the signatures packed where
 *     every one taken is base58 digits;
 *   - a batch with a signer that is not a public key, or a null signature, is handed over with its
 *     text (and the reader's row path names the row and field); the batches around it are held;
 *   - the same through the kernel worker (the engine's decoder);
 *   - a file that declares its signatures required (as the canonical schema writes them): they have
 *     nothing to check, so the decoder leaves them in the file unread (not held, not handed over),
 *     and `take` reads the rows asked back; the files above declare them nullable, so their
 *     signatures are held and checked like the other text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordBatch, Schema, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { createTableFileWriter } from '../../../src/ingest/files/node-sink.js';
import { createParquetDecoder, type OpenedParquet, type ParquetDecoder } from '../../../src/ingest/files/parquet-decoder.js';
import { loadParquetWasm } from '../../../src/ingest/files/parquet-wasm.js';
import { canonicalTable } from '../../store/fixtures.js';
import { readTableFile } from '../../../src/ingest/files/read.js';
import { signatureAt, type SignatureValues } from '../../../src/ingest/signature-values.js';
import { startNodeKernelWorker } from '../../../src/kernels/worker-node.js';
import type { TransactionRow } from '../../../src/schema/tables.js';
import { mulberry32 } from '../../helpers/prng.js';
import { base58 } from '../../helpers/reference-accounts.js';

const rand = mulberry32(0x7e47);
const int = (n: number) => Math.floor(rand() * n);
const key = () => base58(Uint8Array.from({ length: 32 }, () => int(256)));
const KEYS = Array.from({ length: 30 }, key);
const TEXT = { columns: ['signature', 'signer', 'program'], publicKeys: ['signer', 'program'], signatures: ['signature'] };
const ROW_GROUP = 250;
const BATCH = 100;

/** 2,000 transactions over 40 slots; signatures of any length, some multi-byte. */
const ROWS: TransactionRow[] = Array.from({ length: 2_000 }, (_, i) => ({
  slot: 1_000n + BigInt(i >> 6), index: i & 63,
  signature: i % 7 === 0 ? `sïg-${i}-€-${'x'.repeat(int(90))}` : base58(Uint8Array.from({ length: 64 }, () => int(256))),
  signer: KEYS[int(KEYS.length)]!, program: KEYS[int(5)]!,
  is_vote: rand() < 0.3, failed: false, compute_unit_price: BigInt(int(1_000)), compute_unit_limit: 200_000,
  compute_units_consumed: 1_000n, priority_fee: null, writable_accounts: [KEYS[int(KEYS.length)]!],
}));

let dir: string;
/** Writes `rows` as the canonical schema does (signatures required). */
async function writeRequired(name: string, rows: readonly TransactionRow[]): Promise<string> {
  const path = join(dir, name);
  const writer = await createTableFileWriter(path, 'parquet', 'transactions', { rowGroupRows: ROW_GROUP });
  await writer.write(rows);
  await writer.close();
  return path;
}

/** Writes `rows` with the signature column declared nullable (a file may hold nulls in it: the decoder checks it). */
async function writeFile(name: string, rows: readonly (Omit<TransactionRow, 'signature'> & { signature: string | null })[]): Promise<string> {
  const table = canonicalTable('transactions', rows);
  const schema = new Schema(table.schema.fields.map((f) => (f.name === 'signature' ? f.clone({ nullable: true }) : f)));
  const relaxed = new Table(schema, table.batches.map((batch) => new RecordBatch(schema, batch.data)));
  const parquet = await loadParquetWasm();
  const properties = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(ROW_GROUP).build();
  const path = join(dir, name);
  writeFileSync(path, parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(relaxed, 'stream')), properties));
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-held-text-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const strings = (values: SignatureValues, n: number) => Array.from({ length: n }, (_, i) => signatureAt(values, i));

/** Every batch of an open file: its rows there and the column names handed over. */
async function readAll(decoder: ParquetDecoder, opened: OpenedParquet, first = 0): Promise<{ first: number; rows: number; names: string[] }[]> {
  const batches = [];
  for (let parts = await decoder.next(opened.handle); parts; parts = await decoder.next(opened.handle)) {
    const tables = parts.map((bytes) => tableFromIPC(bytes));
    batches.push({ first, rows: tables[0]!.numRows, names: tables.flatMap((t) => t.schema.fields.map((f) => f.name)) });
    first += tables[0]!.numRows;
  }
  return batches;
}

/** `take` of `rows` against the rows written. */
async function expectTaken(decoder: ParquetDecoder, path: string, opened: OpenedParquet, rows: number[]): Promise<void> {
  const taken = await decoder.take({ path }, opened.held!, Uint32Array.from(rows));
  expect(opened.held!.columns).toEqual(TEXT.columns);
  TEXT.columns.forEach((name, c) => {
    expect(strings(taken[c]!, rows.length), name).toEqual(rows.map((r) => ROWS[r]![name as 'signature']));
  });
  // the signatures come packed where every one taken is base58 digits (every seventh row's is not)
  expect('packed' in taken[0]!).toBe(rows.every((r) => r % 7 !== 0));
}

describe.each([
  ['in this thread', async () => ({ decoder: createParquetDecoder(), close: async () => {} })],
  ['in the kernel worker', async () => {
    const client = await startNodeKernelWorker();
    return { decoder: client.parquet, close: () => client.close() };
  }],
] as const)('text held by the Parquet decoder, %s', (_, start) => {
  it('the batches lack the text; take gives any rows in the order asked, held or read back', async () => {
    const path = await writeFile('clean.parquet', ROWS);
    const { decoder, close } = await start();
    try {
      const opened = await decoder.open({ path }, { batchRows: BATCH, holdText: TEXT });
      // rows of the first batches, asked before the file is read on: held
      const parts = (await decoder.next(opened.handle))!;
      expect(parts.length).toBe(1);
      await expectTaken(decoder, path, opened, [99, 0, 42, 42, 7]);
      const batches = await readAll(decoder, opened, tableFromIPC(parts[0]!).numRows);
      expect(batches.at(-1)!.first + batches.at(-1)!.rows).toBe(ROWS.length);
      // row groups of 250 cut into batches of 100, 100 and 50: more than eight batches, so the first were let go
      expect(batches.length).toBeGreaterThan(8);
      for (const { names } of batches) expect(names.filter((n) => TEXT.columns.includes(n))).toEqual([]);
      // the last batches are held; the first ones were let go (taken past, or evicted): read back
      const rows = [1_999, 1_900, 3, 1_000, 250, 249, 1_950, 0, 1_999];
      await expectTaken(decoder, path, opened, rows);
      await expectTaken(decoder, path, opened, Array.from({ length: 500 }, () => int(ROWS.length)));
    } finally {
      await close();
    }
  });

  it('a take that reads rows back while the file is read on gets the rows asked (its held batches kept meanwhile)', async () => {
    const path = await writeFile('concurrent.parquet', ROWS);
    const { decoder, close } = await start();
    try {
      const opened = await decoder.open({ path }, { batchRows: BATCH, holdText: TEXT });
      const firstBatch = (await decoder.next(opened.handle))!;
      let read = tableFromIPC(firstBatch[0]!).numRows;
      // read on until the first batches are let go, then take rows of the newest held batch and of the first
      for (let k = 0; k < 10; k++) read += tableFromIPC((await decoder.next(opened.handle))![0]!).numRows;
      const rows = [read - 1, 0, read - 2, 5, read - 3];
      const taking = decoder.take({ path }, opened.held!, Uint32Array.from(rows));
      // more batches decoded and held (and older ones let go) while the take reads back
      for (let k = 0; k < 3; k++) await decoder.next(opened.handle);
      const taken = await taking;
      TEXT.columns.forEach((name, c) => expect(strings(taken[c]!, rows.length)).toEqual(rows.map((r) => ROWS[r]![name as 'signature'])));
    } finally {
      await close();
    }
  });

  it('a batch whose text fails its check comes with it; the others are held', async () => {
    const bad = ROWS.map((row, i) => (i === 1_234 ? { ...row, signer: 'not a key!' } : row));
    const path = await writeFile('bad.parquet', bad);
    const { decoder, close } = await start();
    try {
      const opened = await decoder.open({ path }, { batchRows: BATCH, holdText: TEXT });
      const batches = await readAll(decoder, opened);
      for (const { first, rows, names } of batches) {
        const holdsBad = first <= 1_234 && 1_234 < first + rows;
        expect(names.filter((n) => TEXT.columns.includes(n)), `batch at ${first}`).toEqual(holdsBad ? TEXT.columns : []);
      }
      // the batches after it are held
      await expectTaken(decoder, path, opened, [1_999, 1_990]);
    } finally {
      await close();
    }
  });

  it('a null signature fails the check: its batch comes with its text', async () => {
    const path = await writeFile('null-signature.parquet', ROWS.map((row, i) => (i === 321 ? { ...row, signature: null } : row)));
    const { decoder, close } = await start();
    try {
      const opened = await decoder.open({ path }, { batchRows: BATCH, holdText: TEXT });
      for (const { first, rows, names } of await readAll(decoder, opened)) {
        expect(names.filter((n) => TEXT.columns.includes(n)), `batch at ${first}`).toEqual(first <= 321 && 321 < first + rows ? TEXT.columns : []);
      }
    } finally {
      await close();
    }
  });

  it('signatures the file declares required are left in it unread when asked; take reads the rows asked back', async () => {
    const path = await writeRequired('required.parquet', ROWS);
    const { decoder, close } = await start();
    try {
      const heldAll = await decoder.open({ path }, { batchRows: BATCH, holdText: TEXT });
      expect(heldAll.unread, 'not asked to: held with the other text').toEqual([]);
      expect(heldAll.held).toEqual({ ...heldAll.held, columns: TEXT.columns, signatures: ['signature'] });
      await decoder.close(heldAll.handle);
      const opened = await decoder.open({ path }, { batchRows: BATCH, holdText: { ...TEXT, signaturesInFile: true } });
      expect(opened.unread).toEqual(['signature']);
      expect(opened.held).toEqual({ ...opened.held, columns: ['signer', 'program'], signatures: [] });
      const batches = await readAll(decoder, opened);
      expect(batches.reduce((n, b) => n + b.rows, 0)).toBe(ROWS.length);
      for (const { names } of batches) expect(names.filter((n) => TEXT.columns.includes(n))).toEqual([]);
      const unread = { columns: opened.unread, key: `${opened.held!.key}:unread`, signatures: opened.unread };
      for (const rows of [[1_999, 3, 1_000, 3, 250, 249], [1, 2, 4, 5], Array.from({ length: 300 }, () => int(ROWS.length))]) {
        const [taken] = await decoder.take({ path }, unread, Uint32Array.from(rows));
        expect(strings(taken!, rows.length)).toEqual(rows.map((r) => ROWS[r]!.signature));
        expect('packed' in taken!).toBe(rows.every((r) => r % 7 !== 0));
      }
    } finally {
      await close();
    }
  });
});

it('a load holding the text names a bad signer\'s row and field, as reading it whole does, and keeps every other row', async () => {
  const bad = ROWS.map((row, i) => (i === 777 ? { ...row, signer: 'not a key!' } : row));
  const path = await writeFile('bad-load.parquet', bad);
  const read = async (textHeld: boolean) => {
    const batches = [];
    for await (const batch of readTableFile({ name: 'transactions.parquet', path }, { batchRows: BATCH, textHeld })) batches.push(batch);
    return batches;
  };
  const [held, whole] = [await read(true), await read(false)];
  const rejections = (batches: typeof held) => batches.flatMap((b) => b.rejections);
  expect(rejections(held)).toEqual(rejections(whole));
  expect(rejections(held)).toMatchObject([{ row: 778, field: 'signer' }]);
  const kept = (batches: typeof held) => batches.reduce((n, b) => n + b.rows.numRows, 0);
  expect(kept(held)).toBe(ROWS.length - 1);
  // the held batches name their text as left in the file, with a take for it
  expect(held.filter((b) => b.deferred?.text).length).toBeGreaterThan(0);
  const sample = held.find((b) => b.deferred?.text)!;
  const taken = await sample.deferred!.text!.take(Uint32Array.from([Number(sample.rowNumbers![0]) - 1]));
  expect(signatureAt(taken[0]!, 0)).toBe(ROWS[Number(sample.rowNumbers![0]) - 1]!.signature);
});

it('a load of a file whose signatures are required names them as left in the file when asked, and reads back the rows asked', async () => {
  const path = await writeRequired('required-load.parquet', ROWS);
  for await (const batch of readTableFile({ name: 'transactions.parquet', path }, { batchRows: BATCH, textHeld: true })) {
    expect(batch.deferred!.text!.columns, 'not asked to: held with the other text').toContain('signature');
    expect(batch.deferred!.text!.signatures).toBeUndefined();
  }
  let rows = 0;
  for await (const batch of readTableFile({ name: 'transactions.parquet', path }, { batchRows: BATCH, textHeld: true, signaturesInFile: true })) {
    rows += batch.rows.numRows;
    expect(batch.deferred!.columns).toContain('signature');
    expect(batch.rows.getChild('signature')!.nullCount, 'nulls in their place').toBe(batch.rows.numRows);
    const asked = Uint32Array.from([batch.rowNumbers!.length - 1, 0], (k) => batch.rowNumbers![k]! - 1);
    const signatures = await batch.deferred!.text!.signatures!(asked);
    expect(strings(signatures, 2)).toEqual(Array.from(asked, (r) => ROWS[r]!.signature));
  }
  expect(rows).toBe(ROWS.length);
});

it('a file named by another table is opened once, whole: only a transactions file leaves its text with the decoder', async () => {
  const path = join(dir, 'trades.parquet');
  const writer = await createTableFileWriter(path, 'parquet', 'trades', { rowGroupRows: ROW_GROUP });
  await writer.write(ROWS.slice(0, 300).map((row, i) => ({
    signature: row.signature, signer: row.signer, slot: row.slot, tx_index: row.index, fill_index: 0, timestamp: 1_700_000_000_000_000_000n + row.slot,
    base: KEYS[0]!, quote: KEYS[1]!, base_amount: BigInt(i + 1), quote_amount: 5n, base_decimals: 9, quote_decimals: 6, is_buy: i % 2 === 0,
  })));
  await writer.close();
  const decoder = createParquetDecoder();
  const asked: Parameters<ParquetDecoder['open']>[1][] = [];
  const counting: ParquetDecoder = { ...decoder, open: (location, options) => (asked.push(options), decoder.open(location, options)) };
  let rows = 0;
  for await (const batch of readTableFile({ name: 'trades.parquet', path }, { batchRows: BATCH, parquet: counting, keyListsInFile: true, textHeld: true })) {
    expect(batch.deferred?.text).toBeUndefined();
    rows += batch.rows.numRows;
  }
  expect(rows).toBe(300);
  expect(asked).toHaveLength(1);
  expect(asked[0]).not.toHaveProperty('holdText');
});
