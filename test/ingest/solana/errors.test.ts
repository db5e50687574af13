// Damaged copies of block 254170887 (helius-labs/photon, tests/data/blocks/index_block_metadata/254170887,
// Apache-2.0; see test/fixtures/real/PROVENANCE.md) and small synthetic blocks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../../src/schema/base58.js';
import { decodeGetBlockFile } from '../../../src/ingest/solana/get-block.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const BLOCKS = `${REAL_DATA}blocks/`;
const json = () => JSON.parse(readFileSync(BLOCKS + 'block-254170887.json-encoding.json', 'utf8'));
const binary = () => JSON.parse(readFileSync(BLOCKS + 'block-254170887.base64.json', 'utf8'));

describe('rejections are data and the rest still loads', () => {
  const good = JSON.stringify({ slot: 254170887, block: json() });
  const damaged = binary();
  delete damaged.transactions[5].meta;
  damaged.transactions[7].transaction[1] = 'zstd';
  const noTime = json();
  delete noTime.blockTime;
  const lines = [
    good,
    good.slice(0, 5000),
    JSON.stringify({ hello: 'world' }),
    JSON.stringify({ jsonrpc: '2.0', result: { slot: 254170888, block: damaged }, id: 1 }),
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32007, message: 'Slot 254170889 was skipped' }, id: 2 }),
    '',
    JSON.stringify({ slot: 254170890, block: noTime }),
  ];
  const result = decodeGetBlockFile(lines.join('\n'), 'dump/blocks.ndjson');

  it('keeps the good blocks and the good transactions of a damaged block', () => {
    expect(result.blocks.map((b) => b.slot)).toEqual([254170887n, 254170888n]);
    expect(result.transactions.filter((t) => t.slot === 254170887n)).toHaveLength(602);
    const damagedRows = result.transactions.filter((t) => t.slot === 254170888n);
    expect(damagedRows).toHaveLength(600);
    expect(damagedRows.map((t) => t.index)).not.toContain(5);
    expect(damagedRows.map((t) => t.index)).not.toContain(7);
    expect(damagedRows.find((t) => t.index === 8)?.signature).toBe(result.transactions.find((t) => t.slot === 254170887n && t.index === 8)?.signature);
    expect(result.blockStats.map((s) => [s.slot, s.transactions, s.rejectedTransactions])).toEqual([
      [254170887n, 602, 0],
      [254170888n, 602, 2],
    ]);
  });

  it('names file, line and field of each problem', () => {
    const at = result.rejections.map((r) => [r.source, r.row, r.field]);
    expect(at).toEqual([
      ['dump/blocks.ndjson', 2, ''],
      ['dump/blocks.ndjson', 3, 'transactions'],
      ['dump/blocks.ndjson', 4, 'result.block.transactions[5].meta'],
      ['dump/blocks.ndjson', 4, 'result.block.transactions[7].transaction[1]'],
      ['dump/blocks.ndjson', 5, 'error'],
      ['dump/blocks.ndjson', 7, 'block.blockTime'],
    ]);
    const [truncated, notBlock, noMeta, encoding, rpcError, missingTime] = result.rejections.map((r) => r.message);
    expect(truncated).toMatch(/invalid JSON.*truncated/);
    expect(notBlock).toContain("expected the block's transaction list");
    expect(noMeta).toContain('slot 254170888, transaction 5');
    expect(noMeta).toContain('meta is missing');
    expect(encoding).toContain("unknown transaction encoding \"zstd\"");
    expect(rpcError).toContain('Slot 254170889 was skipped');
    expect(missingTime).toContain('no blockTime');
  });

  it('a truncated single-document file is one rejection at the line where it stops', () => {
    const pretty = JSON.stringify(json(), null, 1);
    const cut = pretty.slice(0, Math.floor(pretty.length / 2));
    const r = decodeGetBlockFile(cut, 'block-254170887.json');
    expect(r.blocks).toEqual([]);
    expect(r.rejections).toHaveLength(1);
    expect(r.rejections[0]).toMatchObject({ source: 'block-254170887.json', field: '' });
    expect(r.rejections[0].row).toBe(cut.split('\n').length);
    expect(r.rejections[0].message).toContain('truncated');
  });

  it('rejects an empty file and a signatures-only block', () => {
    expect(decodeGetBlockFile('  \n', 'empty.json').rejections[0]).toMatchObject({ row: 1, field: '', message: 'empty file' });
    const sigs = decodeGetBlockFile(JSON.stringify({ blockTime: 1, parentSlot: 1, signatures: ['x'] }), 'x.json').rejections[0];
    expect(sigs.field).toBe('transactions');
    expect(sigs.message).toContain('transactionDetails must be "full"');
  });

  it('rejects a transaction whose balances do not match its account keys (v0 without loadedAddresses)', () => {
    const block = json();
    const v0 = block.transactions.findIndex((t: any) => t.meta.loadedAddresses.writable.length > 0);
    expect(v0).toBeGreaterThan(-1);
    delete block.transactions[v0].meta.loadedAddresses;
    const r = decodeGetBlockFile(JSON.stringify(block), 'block-254170887.json');
    expect(r.transactions).toHaveLength(601);
    expect(r.rejections.map((x) => x.field)).toEqual([`transactions[${v0}].meta.loadedAddresses`]);
  });
});

describe('file shapes', () => {
  const block = json();

  it('accepts a JSON array of blocks; rows are array elements; file-name slots do not apply', () => {
    const r = decodeGetBlockFile(JSON.stringify([{ slot: 7, block }, block]), 'block-254170887.json');
    expect(r.blocks.map((b) => b.slot)).toEqual([7n, 254170887n]);
    expect(r.warnings.map((w) => [w.row, w.field])).toEqual([[2, '']]);
  });

  it('takes the slot from <slot>.json', () => {
    const r = decodeGetBlockFile(JSON.stringify({ jsonrpc: '2.0', result: block, id: 1 }), '/data/254170887.json');
    expect(r.blocks[0].slot).toBe(254170887n);
    expect(r.warnings).toEqual([]);
  });

  it('keeps u64 values above 2^53 exact', () => {
    const text = readFileSync(BLOCKS + 'block-254170887.json-encoding.json', 'utf8').replace('"blockHeight":234724352', '"blockHeight":18446744073709551615');
    expect(decodeGetBlockFile(text, 'block-254170887.json').blocks[0].block_height).toBe(18446744073709551615n);
  });
});

describe('compute budget anomalies are counted, not thrown', () => {
  const CB = 'ComputeBudget111111111111111111111111111111';
  const payer = 'Payer11111111111111111111111111111111111111';
  const program = 'Prog111111111111111111111111111111111111111';
  const price = (microLamports: number) => encodeBase58(Uint8Array.from([3, microLamports & 0xff, microLamports >> 8, 0, 0, 0, 0, 0, 0]));
  const entry = (data: string[]) => ({
    transaction: {
      signatures: ['5'.repeat(88)],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 2 },
        accountKeys: [payer, CB, program],
        recentBlockhash: '1'.repeat(32),
        instructions: [...data.map((d) => ({ programIdIndex: 1, accounts: [], data: d })), { programIdIndex: 2, accounts: [], data: '' }],
      },
    },
    meta: { err: null, fee: 5000, preBalances: [10, 1, 1], postBalances: [5, 1, 1], computeUnitsConsumed: 100 },
    version: 'legacy',
  });

  it('duplicate SetComputeUnitPrice and unknown tags give price 0, limit 1,400,000', () => {
    const block = { blockTime: 1, parentSlot: 9, transactions: [entry([price(500)]), entry([price(500), price(700)]), entry(['8'])] };
    const r = decodeGetBlockFile(JSON.stringify({ slot: 10, block }), 'synthetic');
    expect(r.rejections).toEqual([]);
    expect(r.transactions.map((t) => [t.compute_unit_price, t.compute_unit_limit, t.priority_fee])).toEqual([
      [500n, 200_000, 100n],
      [0n, 1_400_000, 0n],
      [0n, 1_400_000, 0n],
    ]);
    expect(r.blockStats[0].computeBudgetAnomalies).toBe(2);
  });
});
